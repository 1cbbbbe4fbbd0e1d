/* An always-call player for the ACPC reference dealer (its protocol 2.0.0), the ACPC side's
 * counterpart of kuhn_call_bot.c and holdem_call_bot.c in benchmarks/vs_acpc.py.
 *
 *     acpc_call_player GAMEFILE HOST PORT
 *
 * Built against the dealer's own game code (game.c, rng.c, net.c of a checkout of its source):
 * it connects to HOST:PORT, says its version, and reads MATCHSTATE lines with the dealer's
 * readMatchState. To every state where it is the player to act it answers "<state>:c" (check
 * or call) in one write; it skips comments, finished hands and other players' turns. It ends
 * with status 0 when the dealer closes the connection, 1 on anything it cannot read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "net.h"

static int send_all(int fd, const char *text, size_t length) {
    while (length > 0) {
        ssize_t sent = write(fd, text, length);
        if (sent <= 0) return -1;
        text += sent;
        length -= (size_t)sent;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: acpc_call_player GAMEFILE HOST PORT\n");
        return 1;
    }
    FILE *file = fopen(argv[1], "r");
    if (file == NULL) {
        fprintf(stderr, "acpc_call_player: cannot open %s\n", argv[1]);
        return 1;
    }
    Game *game = readGame(file);
    fclose(file);
    if (game == NULL) {
        fprintf(stderr, "acpc_call_player: %s is not a game definition\n", argv[1]);
        return 1;
    }
    long port = strtol(argv[3], NULL, 10);
    if (port <= 0 || port > 65535) {
        fprintf(stderr, "acpc_call_player: no such port: %s\n", argv[3]);
        return 1;
    }
    int sock = connectTo(argv[2], (uint16_t)port);
    if (sock < 0) return 1;
    static const char version[] = "VERSION:2.0.0\r\n";
    FILE *from = fdopen(sock, "r");
    if (from == NULL || send_all(sock, version, sizeof version - 1) < 0) {
        fprintf(stderr, "acpc_call_player: cannot talk to the dealer\n");
        return 1;
    }

    char line[MAX_LINE_LEN];
    MatchState state;
    while (fgets(line, sizeof line, from) != NULL) {
        if (line[0] == '#' || line[0] == ';') continue;
        int length = readMatchState(line, game, &state);
        if (length < 0) {
            fprintf(stderr, "acpc_call_player: cannot read the state %s", line);
            return 1;
        }
        if (stateFinished(&state.state)) continue;
        if (currentPlayer(game, &state.state) != state.viewingPlayer) continue;
        if ((size_t)length + 5 > sizeof line) {
            fprintf(stderr, "acpc_call_player: the state is too long\n");
            return 1;
        }
        memcpy(line + length, ":c\r\n", 5);
        if (send_all(sock, line, (size_t)length + 4) < 0) {
            fprintf(stderr, "acpc_call_player: cannot answer the dealer\n");
            return 1;
        }
    }
    return 0;
}
