/* bot.c: a complete bot for every pokerbots game: put your strategy in decide().
 *
 * poker.c does the protocol; decide() sees a poker_state (see poker.h) and returns
 * poker_check_or_call(s), poker_fold(s) or poker_raise_to(s, value). Started with --mix, the
 * bot answers with mixed(): a mix of replies, from which the server draws the action.
 */
#include <string.h>

#include "poker.h"

static const char RANKS[] = "23456789TJQKA";

static int rank(const char *card) { return (int)(strchr(RANKS, card[0]) - RANKS); }

/* 0 weak, 1 medium, 2 strong: a rough read of your cards. */
static int strength(const poker_state *s) {
    int best = 0, low = 12;
    for (int i = 0; i < s->ncards; i++) {
        for (int j = 0; j < s->nboard; j++)
            if (rank(s->cards[i]) == rank(s->board[j])) return 2; /* a pair with the board */
        if (rank(s->cards[i]) > best) best = rank(s->cards[i]);
        if (rank(s->cards[i]) < low) low = rank(s->cards[i]);
    }
    if (s->ncards == 2 && best == low) return 2; /* a pair in the hand */
    if (s->ncards == 1) /* Kuhn and Leduc: one card */
        return best >= rank("K") ? 2 : best == rank("Q") ? 1 : 0;
    if (s->nboard == 0 && low >= rank("T")) return 2; /* two high cards before the flop */
    return best >= rank("Q") ? 1 : 0;
}

static poker_reply decide(const poker_state *s) {
    int hand = strength(s);
    if (hand == 2 && s->can_raise && poker_first_action_on_round(s))
        return poker_raise_to(s, s->raise_min); /* bet or raise the least, once a round */
    if (poker_to_call(s) == 0) return poker_check_or_call(s); /* check */
    if (hand == 2 || (hand == 1 && 2 * poker_to_call(s) <= poker_pot_total(s)))
        return poker_check_or_call(s); /* call */
    return poker_fold(s);
}

/* A mixed reply: decide()'s reply four times as often as each other kind of legal reply
 * (check or call, the least bet or raise, fold), so that no action gives your cards away. */
static poker_reply mixed(const poker_state *s) {
    poker_item mix[4];
    poker_reply choice = decide(s);
    int n = 0, chosen = 0;
    mix[n++] = (poker_item){poker_check_or_call(s), 1};
    if (s->can_raise) mix[n++] = (poker_item){poker_raise_to(s, s->raise_min), 1};
    if (s->can_fold) mix[n++] = (poker_item){poker_fold(s), 1};
    for (int i = 0; i < n; i++)
        if (strcmp(mix[i].reply.text, choice.text) == 0) mix[i].weight = 4, chosen = 1;
    if (!chosen) mix[n++] = (poker_item){choice, 4};
    return poker_mix(s, mix, n);
}

int main(int argc, char **argv) {
    poker_run(argc > 1 && strcmp(argv[1], "--mix") == 0 ? mixed : decide);
    return 0;
}
