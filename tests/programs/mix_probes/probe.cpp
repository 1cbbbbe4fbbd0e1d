// Prints the C++ kit's mix of the items on the command line (reply weight ...), for a decision
// facing a bet: call 10, raise 20 to 100, fold at 5. Built in a kit's folder.
#include <cstdio>
#include <cstdlib>

#include "poker.hpp"

int main(int argc, char** argv) {
    poker::State s;
    s.players = 2;
    s.front = 5;
    s.table_bet = s.call = 10;
    s.can_fold = s.can_raise = true;
    s.raise_min = 20;
    s.raise_max = 100;
    std::vector<std::pair<std::string, long>> items;
    for (int i = 1; i + 1 < argc; i += 2) items.push_back({argv[i], std::strtol(argv[i + 1], nullptr, 10)});
    std::printf("%s\n", s.mix(items).c_str());
}
