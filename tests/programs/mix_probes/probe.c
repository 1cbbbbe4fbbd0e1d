/* Prints the C kit's mix of the items on the command line (reply weight ...), for a decision
 * facing a bet: call 10, raise 20 to 100, fold at 5. Built in a kit's folder with poker.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poker.h"

static poker_item items[80];

int main(int argc, char **argv) {
    poker_state s;
    int n = 0;
    memset(&s, 0, sizeof s);
    s.players = 2;
    s.front = 5;
    s.table_bet = s.call = 10;
    s.can_fold = s.can_raise = 1;
    s.raise_min = 20;
    s.raise_max = 100;
    for (int i = 1; i + 1 < argc && n < 80; i += 2, n++) {
        snprintf(items[n].reply.text, sizeof items[n].reply.text, "%s", argv[i]);
        items[n].weight = strtol(argv[i + 1], NULL, 10);
    }
    printf("%s\n", poker_mix(&s, items, n).text);
    return 0;
}
