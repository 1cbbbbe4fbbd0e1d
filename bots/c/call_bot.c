/* call_bot.c: checks or calls every time, in every game (Kuhn, Leduc, no-limit and limit
 * Hold'em) at any table size.
 *
 * A complete bot in plain C: it answers READY, OK (REBUY when broke with carried stacks),
 * Money and the goodbye line itself and keeps everyone's bankroll. The result of a hand is the
 * change of each stack in Hold'em, and the pot shares won minus the chips put in (the money in
 * front in Kuhn, the Totals line in Leduc) in the other games. The game comes from
 * POKERBOTS_GAME (or from the Game line of init_round when that is not set): it says which
 * line ends each message. Build with `make`; run it with
 * `pokerbots run bots/c/call_bot bots/random_bot.py`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLAYERS 16

static char line[4096];
static char game[32] = "kuhn";
static int n;                                   /* players */
static long money[MAX_PLAYERS], delta[MAX_PLAYERS];
static long start[MAX_PLAYERS], stack[MAX_PLAYERS]; /* Hold'em: starting stacks, stacks now */
static int carry;                               /* StackMode: carry */

/* Read one line without its newline; exit quietly when the server closes the pipe. */
static void next_line(void) {
    if (!fgets(line, sizeof line, stdin)) exit(0);
    line[strcspn(line, "\r\n")] = '\0';
}

static void reply(const char *text) {
    printf("%s\n", text);
    fflush(stdout);
}

static int starts(const char *prefix) { return strncmp(line, prefix, strlen(prefix)) == 0; }

/* The line that ends init_round (0), play (1) and end_hand (2) in this game; "" for play in
 * Kuhn, which ends with its Action lines. */
static const char *last(int message) {
    static const char *const lines[][4] = {
        {"kuhn", "EndProb:", "", "Pots:"},
        {"leduc", "Game:", "Raise:", "Totals:"},
        {"holdem-nl", "StackMode:", "Raise:", "Stacks:"},
        {"holdem-limit", "BetSizes:", "Raise:", "Stacks:"},
    };
    for (int i = 0; i < 4; i++)
        if (strcmp(game, lines[i][0]) == 0) return lines[i][message + 1];
    fprintf(stderr, "call_bot.c: unknown game %s\n", game);
    exit(1);
}

/* "a,b,c" after the field's name -> values; returns how many. */
static int numbers(const char *text, long *out) {
    int count = 0;
    char *end;
    text = strchr(text, ' ') + 1;
    while (count < MAX_PLAYERS) {
        out[count++] = strtol(text, &end, 10);
        if (*end != ',') break;
        text = end + 1;
    }
    return count;
}

/* The value at the end of "Action: BET 2". */
static long action_value(void) { return strtol(strrchr(line, ' ') + 1, NULL, 10); }

/* The init_round lines up to the game's last one (Ante lines come before it). */
static void round_lines(void) {
    const char *end = last(0);
    while (!starts(end)) {
        next_line();
        if (starts("Money:")) n = numbers(line, money);
        if (starts("Stack:") && numbers(line, start) == 1)
            for (int i = 1; i < n; i++) start[i] = start[0]; /* one stack for everyone */
        if (starts("StackMode:")) carry = strcmp(line, "StackMode: carry") == 0;
    }
    memcpy(stack, start, sizeof stack);
}

int main(void) {
    const char *env = getenv("POKERBOTS_GAME");
    if (env && *env) snprintf(game, sizeof game, "%.31s", env);
    for (;;) {
        next_line();
        if (strcmp(line, "init_round") == 0) {
            round_lines();
            reply("READY");
        } else if (starts("Game: ")) {
            /* POKERBOTS_GAME was not set: the rest of init_round comes after our READY. */
            snprintf(game, sizeof game, "%.31s", line + 6);
            round_lines();
        } else if (strcmp(line, "init_hand") == 0) {
            next_line(); /* Hand */
            next_line(); /* Cards */
            if (!carry) memcpy(stack, start, sizeof stack);
            reply("READY");
        } else if (strcmp(line, "play") == 0) {
            long table = 0, front = 0, behind = -1;
            for (int i = 0; i < n; i++) {
                next_line();
                if (i == 0) front = action_value();
                if (action_value() > table) table = action_value();
            }
            while (*last(1) && !starts(last(1))) { /* Board, Pot, Stacks, Raise */
                next_line();
                if (starts("Stacks:")) behind = strtol(line + 8, NULL, 10);
            }
            if (behind >= 0 && front + behind < table) table = front + behind; /* all-in */
            printf("BET %ld\n", table); /* check or call */
            fflush(stdout);
        } else if (strcmp(line, "end_hand") == 0) {
            long spent[MAX_PLAYERS], after[MAX_PLAYERS];
            int holdem = 0;
            for (int i = 0; i < n; i++) {
                next_line();
                spent[i] = action_value(); /* Kuhn: the money in front is all one put in */
            }
            char pots[4096] = "";
            while (!starts(last(2))) {
                next_line();
                if (starts("Pots:")) snprintf(pots, sizeof pots, "%s", line + 5);
                if (starts("Totals:")) numbers(line, spent);
                if (starts("Stacks:")) holdem = numbers(line, after);
            }
            for (int i = 0; i < n; i++) {
                delta[i] = holdem ? after[i] - stack[i] : -spent[i];
                if (holdem) stack[i] = after[i];
            }
            for (char *p = pots; !holdem && *p == ' ';) { /* Pots: amount,winner ... */
                long amount = strtol(p + 1, &p, 10);
                long winner = strtol(p + 1, &p, 10);
                if (winner >= 0 && winner < n) delta[winner] += amount;
            }
            reply(holdem && carry && stack[0] == 0 && start[0] > 0 ? "REBUY" : "OK");
        } else if (starts("EndAction:")) {
            printf("Money: ");
            for (int i = 0; i < n; i++) {
                if (i) next_line();
                if (strcmp(line, "EndAction: REBUY") == 0) stack[i] = start[i];
                money[i] += delta[i];
                printf(i ? ",%ld" : "%ld", money[i]);
            }
            printf("\n");
            fflush(stdout);
        } else if (strcmp(line, "end_round") == 0) {
            next_line(); /* Bankrolls */
            next_line(); /* NumHands */
            reply("Thank you dealer, have a nice day!");
            return 0;
        } else {
            fprintf(stderr, "call_bot.c: unexpected line: %s\n", line);
            return 1;
        }
    }
}
