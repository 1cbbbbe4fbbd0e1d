/* floor_dealer [-s] SCRIPT BOT [BOT...]: the least a dealer can do to play a recorded round.
 *
 * benchmarks/floor.py records, with the real referee, every write `pokerbots run` makes to
 * each seat and how many reply lines each write is owed; this program starts the bots on
 * pipes, as the server does, and replays the round: each step's writes (one write a seat),
 * then a blocking read of every reply owed, in seat order. No checks, no logs, no clock: the
 * same bytes to the same bots, and the floor under any dealer of this protocol. With -s it
 * never sleeps: it reads without blocking and yields the CPU (sched_yield) until the reply is
 * there, as `pokerbots run` does on several CPUs, where a wake-up across CPUs is dear.
 *
 * SCRIPT: int32 players, then steps: int32 k (0 ends), then k times int32 seat, int32 replies,
 * int32 length and the bytes. Prints "cpu_us nvcsw nivcsw" of its own on stdout at the end.
 * Exit 1 on any failure (a bot that closed its output early, a short script).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXP 16

static int32_t take(const char **p, const char *end) {
    int32_t v;
    if (*p + 4 > end) { fprintf(stderr, "floor_dealer: short script\n"); exit(1); }
    memcpy(&v, *p, 4);
    *p += 4;
    return v;
}

static void write_all(int fd, const char *data, size_t len) {
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w <= 0) { perror("floor_dealer: write"); exit(1); }
        data += w;
        len -= (size_t)w;
    }
}

static int spin;
static char buf[MAXP][1 << 16];
static size_t have[MAXP];

/* Read from seat s until `lines` whole lines have come; keep what follows them. */
static void read_lines(int fd, int s, int lines) {
    while (lines > 0) {
        char *nl = have[s] ? memchr(buf[s], '\n', have[s]) : NULL;
        if (nl) {
            size_t used = (size_t)(nl - buf[s]) + 1;
            memmove(buf[s], buf[s] + used, have[s] - used);
            have[s] -= used;
            lines--;
            continue;
        }
        ssize_t r = read(fd, buf[s] + have[s], sizeof buf[s] - have[s]);
        if (r < 0 && spin && errno == EAGAIN) {
            sched_yield();
            continue;
        }
        if (r <= 0) { fprintf(stderr, "floor_dealer: seat %d closed its output\n", s); exit(1); }
        have[s] += (size_t)r;
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "-s")) {
        spin = 1;
        argv++;
        argc--;
    }
    if (argc < 3) { fprintf(stderr, "usage: floor_dealer [-s] SCRIPT BOT...\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *script = malloc((size_t)size);
    if (!script || fread(script, 1, (size_t)size, f) != (size_t)size) return 1;
    fclose(f);
    const char *p = script, *end = script + size;
    int players = take(&p, end);
    if (players < 1 || players > MAXP || argc - 2 < 1) return 2;
    int to_bot[MAXP], from_bot[MAXP];
    pid_t pids[MAXP];
    for (int s = 0; s < players; s++) {
        int in[2], out[2];
        if (pipe(in) || pipe(out)) { perror("pipe"); return 1; }
        const char *bot = argv[2 + (s < argc - 2 ? s : argc - 3)];
        pid_t pid = fork();
        if (pid == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            for (int fd = 3; fd < 64; fd++) close(fd);
            execl(bot, bot, (char *)NULL);
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_bot[s] = in[1];
        from_bot[s] = out[0];
        if (spin) fcntl(out[0], F_SETFL, O_NONBLOCK);
        pids[s] = pid;
    }
    int seats[MAXP], owed[MAXP];
    for (;;) {
        int k = take(&p, end);
        if (k == 0) break;
        for (int i = 0; i < k; i++) {
            seats[i] = take(&p, end);
            owed[i] = take(&p, end);
            int len = take(&p, end);
            if (p + len > end) { fprintf(stderr, "floor_dealer: short script\n"); return 1; }
            write_all(to_bot[seats[i]], p, (size_t)len);
            p += len;
        }
        for (int i = 0; i < k; i++) read_lines(from_bot[seats[i]], seats[i], owed[i]);
    }
    for (int s = 0; s < players; s++) close(to_bot[s]);
    for (int s = 0; s < players; s++) waitpid(pids[s], NULL, 0);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%ld %ld %ld\n", (long)(ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec +
                                   ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec),
           ru.ru_nvcsw, ru.ru_nivcsw);
    return 0;
}
