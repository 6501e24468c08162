/*
 * benchgraph host canary: fixed, short pieces of work, one per launch, timed
 * by the launch helper (launcher.c) exactly like a measured launch. Every
 * session runs each piece a few times (harness/experiment/host-canary.ts), so
 * a report can tell a slower host from a slower path.
 *
 * Usage: canary PIECE MARKER [DIR]
 *   cpu   a fixed integer loop (no memory traffic)
 *   mem   one write and one read pass over 64 MiB, more than a last-level cache
 *   fs    create, write 4 KiB, fsync and unlink 8 files in DIR (the data folder)
 *   wake  pipe ping-pong with a forked child, 2000 round trips (wake-up latency)
 *   exec  nothing: the cost of spawning this static binary and its exit
 * Each piece prints MARKER on a line of its own when its work is done, then
 * exits 0; any failure exits 1 with the reason on stderr. Built static
 * (build.sh), so no dynamic loader runs in any piece.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define CPU_ITERATIONS 20000000ULL
#define MEM_BYTES ((size_t)64 << 20)
#define FS_FILES 8
#define FS_FILE_BYTES 4096
#define WAKE_ROUND_TRIPS 2000

static volatile uint64_t sink;

static int fail(const char *what) {
  fprintf(stderr, "canary: %s: %s\n", what, strerror(errno));
  return 1;
}

static int piece_cpu(void) {
  uint64_t x = 88172645463325252ULL, acc = 0;
  for (uint64_t i = 0; i < CPU_ITERATIONS; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc += x * 2654435761ULL;
  }
  sink = acc;
  return 0;
}

static int piece_mem(void) {
  uint64_t *buf = malloc(MEM_BYTES);
  if (!buf) return fail("malloc 64 MiB");
  memset(buf, 1, MEM_BYTES);
  uint64_t acc = 0;
  size_t words = MEM_BYTES / sizeof *buf;
  for (size_t i = 0; i < words; i += 8) acc += buf[i]; /* one read per 64-byte line */
  sink = acc;
  free(buf);
  return 0;
}

static int piece_fs(const char *dir) {
  char path[4096];
  static char block[FS_FILE_BYTES];
  memset(block, 'c', sizeof block);
  for (int i = 0; i < FS_FILES; i++) {
    snprintf(path, sizeof path, "%s/.canary-%ld-%d", dir, (long)getpid(), i);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return fail(path);
    if (write(fd, block, sizeof block) != (ssize_t)sizeof block || fsync(fd) != 0) {
      int e = errno;
      close(fd);
      unlink(path);
      errno = e;
      return fail(path);
    }
    close(fd);
  }
  for (int i = 0; i < FS_FILES; i++) {
    snprintf(path, sizeof path, "%s/.canary-%ld-%d", dir, (long)getpid(), i);
    if (unlink(path) != 0) return fail(path);
  }
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return fail(dir);
  int r = fsync(dfd);
  close(dfd);
  return r == 0 ? 0 : fail(dir);
}

static int piece_wake(void) {
  int ping[2], pong[2];
  if (pipe(ping) != 0 || pipe(pong) != 0) return fail("pipe");
  pid_t child = fork();
  if (child < 0) return fail("fork");
  char b = 0;
  if (child == 0) {
    close(ping[1]);
    close(pong[0]);
    while (read(ping[0], &b, 1) == 1)
      if (write(pong[1], &b, 1) != 1) _exit(1);
    _exit(0);
  }
  close(ping[0]);
  close(pong[1]);
  for (int i = 0; i < WAKE_ROUND_TRIPS; i++) {
    if (write(ping[1], &b, 1) != 1 || read(pong[0], &b, 1) != 1) return fail("ping-pong");
  }
  close(ping[1]);
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return fail("ping-pong child");
  close(pong[0]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: canary cpu|mem|fs|wake|exec MARKER [DIR]\n");
    return 2;
  }
  const char *piece = argv[1];
  int r;
  if (strcmp(piece, "cpu") == 0) r = piece_cpu();
  else if (strcmp(piece, "mem") == 0) r = piece_mem();
  else if (strcmp(piece, "fs") == 0) {
    if (argc < 4) {
      fprintf(stderr, "canary: fs needs a folder\n");
      return 2;
    }
    r = piece_fs(argv[3]);
  } else if (strcmp(piece, "wake") == 0) r = piece_wake();
  else if (strcmp(piece, "exec") == 0) r = 0;
  else {
    fprintf(stderr, "canary: unknown piece %s\n", piece);
    return 2;
  }
  if (r != 0) return r;
  printf("%s\n", argv[2]);
  return fflush(stdout) == 0 ? 0 : 1;
}
