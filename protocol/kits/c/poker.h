/* poker.h: a small client for the pokerbots protocol, in C99 with the standard library only.
 *
 * poker_run() reads the server's messages on stdin, answers every bookkeeping message itself
 * (READY, OK or REBUY, Money, the goodbye line), keeps everyone's bankroll and, in Hold'em,
 * everyone's stack, and calls your decide() for each play message. decide() returns one of
 * poker_check_or_call(), poker_fold() or poker_raise_to(). Index 0 of every list is you: the
 * server rotates them. The protocol is PROTOCOL.md.
 */
#ifndef POKER_H
#define POKER_H

#include <stddef.h>

#define POKER_MAX_PLAYERS 16

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

typedef struct {
    char text[40];
} poker_reply;

long poker_to_call(const poker_state *s);          /* 0 when checking is free */
long poker_pot_total(const poker_state *s);        /* the pot and all money in front */
int poker_first_action_on_round(const poker_state *s);  /* you have not acted on this round */
void poker_legal(const poker_state *s, char *text, size_t size);  /* the legal replies */

poker_reply poker_check_or_call(const poker_state *s);
poker_reply poker_fold(const poker_state *s);      /* exits, saying why, if not allowed */
poker_reply poker_raise_to(const poker_state *s, long value);  /* the same */

/* Play one round on stdin and stdout. */
void poker_run(poker_reply (*decide)(const poker_state *s));

/* A seed for your random numbers: the one the server gives this seat (POKERBOTS_SEED), so that
 * a match replayed with the same seed plays the same again; outside a match, one from the
 * clock. For instance srand((unsigned)poker_seed()). */
unsigned long long poker_seed(void);

#endif
