/* call_bot.c: checks or calls every time in N-player Kuhn poker (2 to 6 players).
 *
 * A complete bot in plain C: it answers READY, OK, Money and the goodbye line itself and keeps
 * everyone's bankroll from the end_hand messages (bankroll change = pot shares won minus the
 * money in front, which in Kuhn is the whole stake). Build with `make`; run it with
 * `pokerbots run bots/c/call_bot bots/random_bot.py`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLAYERS 16

static char line[4096];

/* Read one line without its newline; exit quietly when the server closes the pipe. */
static void next_line(void) {
    if (!fgets(line, sizeof line, stdin)) exit(0);
    line[strcspn(line, "\r\n")] = '\0';
}

static void reply(const char *text) {
    printf("%s\n", text);
    fflush(stdout);
}

/* The number at the end of "Action: BET 2". */
static long action_value(void) {
    char *space = strrchr(line, ' ');
    return space ? strtol(space + 1, NULL, 10) : 0;
}

int main(void) {
    const char *game = getenv("POKERBOTS_GAME");
    long money[MAX_PLAYERS];
    int n = 0;
    if (game && strcmp(game, "kuhn") != 0) {
        fprintf(stderr, "call_bot.c plays Kuhn poker only, not %s\n", game);
        return 1;
    }
    for (;;) {
        next_line();
        if (strcmp(line, "init_round") == 0) {
            char *p;
            next_line(); /* Money: m0,m1,... */
            for (p = line + 7, n = 0; n < MAX_PLAYERS; p++) {
                money[n++] = strtol(p, &p, 10);
                if (*p != ',') break;
            }
            next_line(); /* Blinds */
            next_line(); /* Button */
            next_line(); /* EndProb */
            reply("READY");
        } else if (strcmp(line, "init_hand") == 0) {
            next_line(); /* Hand */
            next_line(); /* Cards */
            reply("READY");
        } else if (strcmp(line, "play") == 0) {
            long table = 0;
            for (int i = 0; i < n; i++) {
                next_line();
                if (action_value() > table) table = action_value();
            }
            printf("BET %ld\n", table); /* check or call: the largest money in front */
            fflush(stdout);
        } else if (strcmp(line, "end_hand") == 0) {
            char *p;
            for (int i = 0; i < n; i++) {
                next_line();
                money[i] -= action_value(); /* everyone loses what they put in... */
            }
            next_line(); /* Showdown */
            next_line(); /* Pots: amount,winner amount,winner ... */
            for (p = line + 5; *p == ' ';) {
                long amount = strtol(p + 1, &p, 10);
                long winner = strtol(p + 1, &p, 10);
                if (winner >= 0 && winner < n) money[winner] += amount; /* ...winners get pots */
            }
            reply("OK");
        } else if (strncmp(line, "EndAction:", 10) == 0) {
            for (int i = 1; i < n; i++) next_line();
            printf("Money: ");
            for (int i = 0; i < n; i++) printf(i ? ",%ld" : "%ld", money[i]);
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
