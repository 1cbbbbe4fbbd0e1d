// bot.cpp: a complete bot for every pokerbots game: put your strategy in decide().
//
// poker.hpp does the protocol; decide() sees a poker::State (see there) and returns
// s.check_or_call(), s.fold() or s.raise_to(value). Started with --mix, the bot answers with
// mixed(): a mix of replies, from which the server draws the action.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "poker.hpp"

static int rank(const std::string& card) {
    return static_cast<int>(std::string("23456789TJQKA").find(card[0]));
}

// 0 weak, 1 medium, 2 strong: a rough read of your cards.
static int strength(const poker::State& s) {
    int best = 0, low = 12;
    for (const auto& card : s.cards) {
        for (const auto& shown : s.board)
            if (rank(card) == rank(shown)) return 2;  // a pair with the board
        best = std::max(best, rank(card));
        low = std::min(low, rank(card));
    }
    if (s.cards.size() == 2 && best == low) return 2;  // a pair in the hand
    if (s.cards.size() == 1)                           // Kuhn and Leduc: one card
        return best >= rank("K") ? 2 : best == rank("Q") ? 1 : 0;
    if (s.board.empty() && low >= rank("T")) return 2;  // two high cards before the flop
    return best >= rank("Q") ? 1 : 0;
}

static std::string decide(const poker::State& s) {
    int hand = strength(s);
    if (hand == 2 && s.can_raise && s.first_action_on_round())
        return s.raise_to(s.raise_min);  // bet or raise the least, once a round
    if (s.to_call() == 0) return s.check_or_call();  // check
    if (hand == 2 || (hand == 1 && 2 * s.to_call() <= s.pot_total()))
        return s.check_or_call();  // call
    return s.fold();
}

// A mixed reply: decide()'s reply four times as often as each other kind of legal reply
// (check or call, the least bet or raise, fold), so that no action gives your cards away.
static std::string mixed(const poker::State& s) {
    std::vector<std::pair<std::string, long>> mix = {{s.check_or_call(), 1}};
    if (s.can_raise) mix.push_back({s.raise_to(s.raise_min), 1});
    if (s.can_fold) mix.push_back({s.fold(), 1});
    std::string choice = decide(s);
    auto chosen = std::find_if(mix.begin(), mix.end(),
                               [&](const auto& item) { return item.first == choice; });
    if (chosen != mix.end()) chosen->second = 4;
    else mix.push_back({choice, 4});
    return s.mix(mix);
}

int main(int argc, char** argv) {
    poker::run(argc > 1 && std::strcmp(argv[1], "--mix") == 0 ? mixed : decide);
    return 0;
}
