/*
 * The floor of a measured launch: a bare posix_spawn + wait4 loop, timed on
 * CLOCK_MONOTONIC from just before posix_spawn to wait4's return, with
 * stdin/stdout/stderr on /dev/null (as `hyperfine -N` does by default).
 *   bare-spawn RUNS PROGRAM [ARGS...]   prints one duration in ms per line
 * Used by bench/measure-vs-hyperfine.ts; compiled there with cc.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bare-spawn RUNS PROGRAM [ARGS...]\n");
    return 2;
  }
  long runs = strtol(argv[1], NULL, 10);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  for (long i = 0; i < runs; i++) {
    pid_t pid;
    int status;
    struct rusage ru;
    long long t0 = now_ns();
    int rc = posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ);
    if (rc != 0) { perror("posix_spawnp"); return 1; }
    if (wait4(pid, &status, 0, &ru) != pid) { perror("wait4"); return 1; }
    long long t1 = now_ns();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { fprintf(stderr, "bare-spawn: %s failed\n", argv[2]); return 1; }
    printf("%.6f\n", (double)(t1 - t0) / 1e6);
  }
  return 0;
}
