/* poker.h: a small client for the pokerbots protocol, in C99 with the standard library only.
 *
 * poker_run() reads the server's messages on stdin, answers every bookkeeping message itself
 * (READY, OK or REBUY, Money, the goodbye line), keeps everyone's bankroll and, in Hold'em,
 * everyone's stack, and calls your decide() for each play message. decide() returns one of
 * poker_check_or_call(), poker_fold() or poker_raise_to(), or a mix of them, poker_mix(),
 * from which the server draws the action. Index 0 of every list is you: the server rotates
 * them. The protocol is PROTOCOL.md.
 */
#ifndef POKER_H
#define POKER_H

#include <stddef.h>

#define POKER_MAX_PLAYERS 16
/* A mix's bounds: each weight a whole number from 1 to POKER_MIX_MAX_WEIGHT, at most
 * POKER_MIX_MAX_ITEMS items. */
#define POKER_MIX_MAX_WEIGHT 1000000
#define POKER_MIX_MAX_ITEMS 64

typedef struct {
    const char *game;       /* the game, as --game names it */
    int players;
    int hand;               /* hand number, from 0 */
    int button;             /* seats from you to the button, clockwise */
    int ncards;             /* your cards: "Q", or "Ah" and "Kd" */
    char cards[2][4];
    int nboard;
    char board[5][4];
    long pot;               /* chips from earlier betting rounds */
    char words[POKER_MAX_PLAYERS][8];  /* each player's latest action: BLIND, PASS, BET, FOLD */
    long fronts[POKER_MAX_PLAYERS];    /* money in front on this betting round */
    int has_stacks;                    /* Hold'em */
    long stacks[POKER_MAX_PLAYERS];    /* chips behind */
    long bankrolls[POKER_MAX_PLAYERS];
    long front, table_bet;
    /* The legal replies, as money-in-front values. */
    long call;              /* BET call checks or calls */
    int can_fold;           /* FOLD front: only when facing a bet */
    int can_raise;          /* BET raise_min .. BET raise_max bets or raises */
    long raise_min, raise_max;
} poker_state;

/* A reply line: one action, or a mix of up to 64 (each at most 33 characters). */
typedef struct {
    char text[2200];
} poker_reply;

/* One item of a mix: a reply and its weight. */
typedef struct {
    poker_reply reply;
    long weight;
} poker_item;

long poker_to_call(const poker_state *s);          /* 0 when checking is free */
long poker_pot_total(const poker_state *s);        /* the pot and all money in front */
int poker_first_action_on_round(const poker_state *s);  /* you have not acted on this round */
void poker_legal(const poker_state *s, char *text, size_t size);  /* the legal replies */

poker_reply poker_check_or_call(const poker_state *s);
poker_reply poker_fold(const poker_state *s);      /* exits, saying why, if not allowed */
poker_reply poker_raise_to(const poker_state *s, long value);  /* the same */
int poker_is_legal(const poker_state *s, const char *reply);  /* the server takes it here */

/* A mixed reply: the server plays items[i].reply with probability weight / total. Each reply
 * one the functions above return, given once, each weight from 1 to POKER_MIX_MAX_WEIGHT, 1 to
 * POKER_MIX_MAX_ITEMS items; one item is that reply. Exits, naming the item, otherwise:
 *   poker_item mix[] = {{poker_check_or_call(s), 3}, {poker_raise_to(s, s->raise_min), 1}};
 *   return poker_mix(s, mix, 2);   (MIX 3 BET 1,1 BET 2 in Kuhn: check three times in four) */
poker_reply poker_mix(const poker_state *s, const poker_item *items, int n);

/* Play one round on stdin and stdout. */
void poker_run(poker_reply (*decide)(const poker_state *s));

/* A seed for your random numbers: the one the server gives this seat (POKERBOTS_SEED), so that
 * a match replayed with the same seed plays the same again; outside a match, one from the
 * clock. For instance srand((unsigned)poker_seed()). */
unsigned long long poker_seed(void);

#endif
