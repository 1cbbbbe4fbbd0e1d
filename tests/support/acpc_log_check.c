/* acpc_log_check: read an ACPC dealer log with the dealer's own code (game.c), for the tests.
 *
 *     acpc_log_check GAMEFILE LOGFILE
 *
 * Reads the game definition with readGame, then every STATE line of the log with readState:
 * the betting must be valid under the game's rules, the hand finished, and each position's
 * logged value within one chip of valueOfState's (the dealer splits a pot evenly, in halves;
 * pokerbots gives the odd chip to the first winner left of the button). Comment lines and the
 * SCORE line are skipped. Prints "ok HANDS" and exits 0, or the first problem and exits 1.
 * Built by the tests against the ACPC source in shared/perf/acpc (game.c rng.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: acpc_log_check GAMEFILE LOGFILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
    Game *game = readGame(f);
    fclose(f);
    if (!game) { fprintf(stderr, "cannot read the game %s\n", argv[1]); return 1; }
    FILE *log = fopen(argv[2], "r");
    if (!log) { fprintf(stderr, "cannot open %s\n", argv[2]); return 2; }
    char line[MAX_LINE_LEN];
    int hands = 0, number = 0;
    while (fgets(line, sizeof line, log)) {
        ++number;
        if (line[0] == '#' || strncmp(line, "SCORE", 5) == 0) continue;
        State state;
        int c = readState(line, game, &state);
        if (c < 0) {
            printf("line %d: readState refuses %s", number, line);
            return 1;
        }
        if (!stateFinished(&state)) {
            printf("line %d: the hand is not finished: %s", number, line);
            return 1;
        }
        if (line[c] != ':') {
            printf("line %d: no values after the state: %s", number, line);
            return 1;
        }
        char *p = &line[c + 1];
        for (int pos = 0; pos < game->numPlayers; ++pos) {
            char *end;
            double logged = strtod(p, &end);
            if (end == p) {
                printf("line %d: no value for position %d\n", number, pos);
                return 1;
            }
            double value = valueOfState(game, &state, pos);
            if (fabs(logged - value) >= 1.0) {
                printf("line %d: position %d logged %g, the dealer's value is %g: %s",
                       number, pos, logged, value, line);
                return 1;
            }
            p = end + 1;
        }
        ++hands;
    }
    printf("ok %d\n", hands);
    return 0;
}
