/*
 * benchgraph launch helper: measures one launch at a time for the Node client
 * (harness/launch/launcher.ts). Node orchestrates; this process measures, so
 * no JavaScript runs between spawn and the events being timed.
 *
 * Protocol (stdin -> helper), one request at a time:
 *   "<payload length in bytes>\n" then the payload: NUL-terminated fields
 *     launchId, cwd, marker, timeoutMs, tailBytes, argc, argv[0..argc), envc, env[0..envc)
 *   or a burst: "B<count>\n" then <count> such frames (1..MAX_BURST): every
 *   launch is spawned back to back after one clock read, the release, and
 *   every time of their results (ready, first line, completion, phases) is
 *   from that release, so N launches share one clock and one start (closed
 *   loop: all N in flight); each result adds "burst" (count), "burstIndex",
 *   "releaseOffsetMs" (0) and "spawnOffsetMs" (from the release to just
 *   before its posix_spawn). Each launch has its own timeout from the release
 *   and its own process group; the results come in request order once all
 *   are complete.
 *   Or a staggered burst: "B<count>@<interval in microseconds>\n" (open
 *   loop): launch i is released at the first release + i * interval, whether
 *   or not the earlier ones are done; each launch's times and timeout are from
 *   its own release, "releaseOffsetMs" is its release from the first, and
 *   "spawnOffsetMs" how late its spawn came after its release.
 *   (argv, env entries "K=V", marker and paths can never contain NUL, so the
 *   framing needs no escaping). An empty marker matches nothing (Ready is then
 *   the client's choice: the first stdout line, or not measured).
 *   EOF on stdin: kill any running launch, exit.
 * Results (helper -> stdout): one JSON object per line. The first line is a
 *   hello {"hello":"benchgraph-launcher","protocol":4}. Results carry raw
 *   facts; the client decides the outcome (state, reason).
 *
 * Timing, all on CLOCK_MONOTONIC from just before posix_spawn:
 *   ready      = the read() that completed the marker line returned
 *                (a line equal to the marker, optional trailing \r; a last
 *                line without \n is complete at EOF)
 *   first line = the read() that completed the first stdout line returned
 *                (or EOF after a partial line)
 *   completion = the last of: child reaped, stdout EOF, stderr EOF
 * The child runs in its own process group with stdin from /dev/null. On
 * timeout, on SIGINT/SIGTERM/SIGHUP of the helper and on stdin EOF during a
 * launch, the whole group gets SIGKILL. Group members still alive after a
 * completed launch (stray background processes) are killed too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROTOCOL 3
#define MAX_BURST 128
#define MAX_FRAME_BYTES (64u << 20)
#define MAX_TAIL_BYTES (16u << 20)
#define KILL_GRACE_MS 2000

static volatile sig_atomic_t child_pgid = 0;
/* The process groups of a burst in flight (run_burst), for on_terminate. */
static volatile sig_atomic_t burst_pgids[MAX_BURST];
static volatile sig_atomic_t burst_count = 0;
static int sigchld_pipe[2] = {-1, -1};

/* ---------- small utilities ---------- */

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what) {
  char msg[512];
  int n = snprintf(msg, sizeof msg, "benchgraph-launcher: %s: %s\n", what, strerror(errno));
  if (n > 0) (void)!write(2, msg, (size_t)n);
  _exit(70);
}

static void on_sigchld(int sig) {
  int saved = errno;
  char b = 1;
  (void)sig;
  (void)!write(sigchld_pipe[1], &b, 1);
  errno = saved;
}

static void on_terminate(int sig) {
  pid_t g = child_pgid;
  if (g > 0) kill(-g, SIGKILL);
  for (int i = 0; i < burst_count; i++)
    if (burst_pgids[i] > 0) kill(-(pid_t)burst_pgids[i], SIGKILL);
  _exit(128 + sig);
}

static void set_nonblock(int fd) {
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) die("fcntl");
}

static const char *signal_name(int sig, char *buf, size_t n) {
  static const struct { int sig; const char *name; } names[] = {
    {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
    {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
    {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGCHLD, "SIGCHLD"},
    {SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},
    {SIGTTOU, "SIGTTOU"}, {SIGURG, "SIGURG"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
    {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGWINCH, "SIGWINCH"}, {SIGSYS, "SIGSYS"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].sig == sig) return names[i].name;
  snprintf(buf, n, "SIG%d", sig);
  return buf;
}

/* ---------- output: a growable buffer and JSON writing ---------- */

typedef struct { char *p; size_t len, cap; } sbuf_t;

static void sb_add(sbuf_t *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (b->len + n + 1 > cap) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) die("realloc");
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

static void sb_str(sbuf_t *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_fmt(sbuf_t *b, const char *fmt, double v) {
  char tmp[64];
  int n = snprintf(tmp, sizeof tmp, fmt, v);
  sb_add(b, tmp, (size_t)n);
}

static void sb_json_bytes(sbuf_t *b, const char *s, size_t n) {
  sb_add(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"') sb_add(b, "\\\"", 2);
    else if (c == '\\') sb_add(b, "\\\\", 2);
    else if (c == '\n') sb_add(b, "\\n", 2);
    else if (c == '\r') sb_add(b, "\\r", 2);
    else if (c == '\t') sb_add(b, "\\t", 2);
    else if (c < 0x20) {
      char tmp[8];
      snprintf(tmp, sizeof tmp, "\\u%04x", c);
      sb_add(b, tmp, 6);
    } else sb_add(b, (const char *)&c, 1);
  }
  sb_add(b, "\"", 1);
}

static void sb_key(sbuf_t *b, const char *key) {
  if (b->len > 1) sb_add(b, ",", 1);
  sb_json_bytes(b, key, strlen(key));
  sb_add(b, ":", 1);
}

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) { struct pollfd pf = {fd, POLLOUT, 0}; poll(&pf, 1, -1); continue; }
      _exit(0); /* the client is gone */
    }
    p += w;
    n -= (size_t)w;
  }
}

/* ---------- input: buffered reads of stdin ---------- */

static char inbuf[65536];
static size_t in_pos = 0, in_len = 0;

/* 1 = the next byte, left unread; 0 = EOF */
static int in_peek(char *c) {
  if (in_pos == in_len) {
    ssize_t r;
    do r = read(0, inbuf, sizeof inbuf); while (r < 0 && errno == EINTR);
    if (r < 0) die("read stdin");
    if (r == 0) return 0;
    in_pos = 0;
    in_len = (size_t)r;
  }
  *c = inbuf[in_pos];
  return 1;
}

/* 1 = byte read, 0 = EOF */
static int in_byte(char *c) {
  if (!in_peek(c)) return 0;
  in_pos++;
  return 1;
}

static int in_exact(char *dst, size_t n) {
  while (n > 0) {
    if (in_pos == in_len) {
      char c;
      if (!in_byte(&c)) return 0;
      *dst++ = c;
      n--;
      continue;
    }
    size_t k = in_len - in_pos < n ? in_len - in_pos : n;
    memcpy(dst, inbuf + in_pos, k);
    in_pos += k;
    dst += k;
    n -= k;
  }
  return 1;
}

static void protocol_error(const char *what) {
  sbuf_t b = {0};
  sb_str(&b, "{");
  sb_key(&b, "protocolError");
  sb_json_bytes(&b, what, strlen(what));
  sb_str(&b, "}\n");
  write_all(1, b.p, b.len);
  _exit(2);
}

/* ---------- one request ---------- */

typedef struct {
  char *frame;
  const char *launch_id, *cwd, *marker;
  long timeout_ms;
  size_t tail_bytes;
  char **argv, **envp;
} request_t;

static int parse_long(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 0) return 0;
  *out = v;
  return 1;
}

/* 1 = request read, 0 = EOF before a request */
static int read_request(request_t *rq) {
  char c, num[24];
  size_t k = 0;
  if (!in_byte(&c)) return 0;
  while (c != '\n') {
    if (k + 1 >= sizeof num || c < '0' || c > '9') protocol_error("bad frame length");
    num[k++] = c;
    if (!in_byte(&c)) protocol_error("truncated frame length");
  }
  num[k] = 0;
  long len;
  if (!parse_long(num, &len) || len <= 0 || (unsigned long)len > MAX_FRAME_BYTES) protocol_error("bad frame length");
  char *frame = malloc((size_t)len + 1);
  if (!frame) die("malloc");
  if (!in_exact(frame, (size_t)len)) protocol_error("truncated frame");
  frame[len] = 0;
  if (frame[len - 1] != 0) protocol_error("frame must end with NUL");

  size_t nfields = 0;
  for (long i = 0; i < len; i++) if (frame[i] == 0) nfields++;
  char **fields = calloc(nfields, sizeof *fields);
  if (!fields) die("calloc");
  size_t f = 0;
  for (long i = 0; i < len; i += (long)strlen(frame + i) + 1) fields[f++] = frame + i;

  if (nfields < 7) protocol_error("too few fields");
  rq->frame = frame;
  rq->launch_id = fields[0];
  rq->cwd = fields[1];
  rq->marker = fields[2];
  long tail, argc, envc;
  if (!parse_long(fields[3], &rq->timeout_ms) || rq->timeout_ms == 0) protocol_error("bad timeoutMs");
  if (!parse_long(fields[4], &tail) || (unsigned long)tail > MAX_TAIL_BYTES) protocol_error("bad tailBytes");
  rq->tail_bytes = (size_t)tail;
  if (!parse_long(fields[5], &argc) || argc < 1 || (size_t)argc > nfields - 7) protocol_error("bad argc");
  if (!parse_long(fields[6 + argc], &envc) || (size_t)(7 + argc + envc) != nfields) protocol_error("bad envc");
  rq->argv = calloc((size_t)argc + 1, sizeof(char *));
  rq->envp = calloc((size_t)envc + 1, sizeof(char *));
  if (!rq->argv || !rq->envp) die("calloc");
  for (long i = 0; i < argc; i++) rq->argv[i] = fields[6 + i];
  for (long i = 0; i < envc; i++) rq->envp[i] = fields[7 + argc + i];
  free(fields);
  return 1;
}

static void free_request(request_t *rq) {
  free(rq->frame);
  free(rq->argv);
  free(rq->envp);
}

/* Looks argv[0] up in the PATH of the launch's own environment (not the helper's). */
static char *resolve_program(const char *prog, char **envp) {
  if (strchr(prog, '/')) return strdup(prog);
  const char *path = "/usr/local/bin:/usr/bin:/bin";
  for (char **e = envp; *e; e++)
    if (strncmp(*e, "PATH=", 5) == 0) { path = *e + 5; break; }
  size_t plen = strlen(prog);
  const char *p = path;
  for (;;) {
    const char *colon = strchr(p, ':');
    size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
    char *cand = malloc(dlen + plen + 3);
    if (!cand) die("malloc");
    if (dlen == 0) snprintf(cand, plen + 3, "./%s", prog);
    else { memcpy(cand, p, dlen); cand[dlen] = '/'; memcpy(cand + dlen + 1, prog, plen + 1); }
    struct stat st;
    if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) return cand;
    free(cand);
    if (!colon) return NULL;
    p = colon + 1;
  }
}

/* ---------- streaming pieces: bounded tail and marker matcher ---------- */

typedef struct { char *buf; size_t cap, start, len; } tail_t;

static void tail_init(tail_t *t, size_t cap) {
  t->cap = cap;
  t->start = t->len = 0;
  t->buf = cap ? malloc(cap) : NULL;
  if (cap && !t->buf) die("malloc");
}

static void tail_push(tail_t *t, const char *p, size_t n) {
  if (t->cap == 0) return;
  if (n >= t->cap) {
    memcpy(t->buf, p + n - t->cap, t->cap);
    t->start = 0;
    t->len = t->cap;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    t->buf[(t->start + t->len) % t->cap] = p[i];
    if (t->len < t->cap) t->len++;
    else t->start = (t->start + 1) % t->cap;
  }
}

static void sb_json_tail(sbuf_t *b, const tail_t *t) {
  char *lin = malloc(t->len + 1);
  if (!lin) die("malloc");
  for (size_t i = 0; i < t->len; i++) lin[i] = t->buf[(t->start + i) % t->cap];
  sb_json_bytes(b, lin, t->len);
  free(lin);
}

typedef struct { const char *m; long mlen; long pos; int cr; int seen; } matcher_t;

/* Feeds bytes; returns 1 when a complete line equal to the marker ends in them. */
static int matcher_feed(matcher_t *mt, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c == '\n') {
      int hit = mt->pos == mt->mlen;
      mt->pos = 0;
      mt->cr = 0;
      if (hit) return 1;
    } else if (mt->pos < 0) {
      /* rest of a line that is not the marker */
    } else if (mt->cr) {
      mt->pos = -1;
    } else if (mt->pos == mt->mlen) {
      if (c == '\r') mt->cr = 1;
      else mt->pos = -1;
    } else if (c == mt->m[mt->pos]) {
      mt->pos++;
    } else {
      mt->pos = -1;
    }
  }
  return 0;
}

static int matcher_eof(matcher_t *mt) { return mt->pos == mt->mlen; }

/* Phase marks: a stderr line `BENCHGRAPH-PHASE NAME` is timestamped when it
 * is read, like the marker; the first MAX_PHASES are reported. */
#define PHASE_PREFIX "BENCHGRAPH-PHASE "
#define MAX_PHASES 16
#define MAX_PHASE_NAME 64
typedef struct { char name[MAX_PHASE_NAME + 1]; int64_t at_ns; } phase_mark_t;
typedef struct { long pos; int bad; char name[MAX_PHASE_NAME + 1]; int nlen; phase_mark_t marks[MAX_PHASES]; int count; } phase_scan_t;

static void phase_feed(phase_scan_t *ps, const char *p, size_t n, int64_t t) {
  const long plen = (long)sizeof(PHASE_PREFIX) - 1;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c == '\n') {
      if (!ps->bad && ps->pos == plen && ps->nlen > 0 && ps->count < MAX_PHASES) {
        while (ps->nlen > 0 && ps->name[ps->nlen - 1] == '\r') ps->nlen--;
        ps->name[ps->nlen] = 0;
        memcpy(ps->marks[ps->count].name, ps->name, (size_t)ps->nlen + 1);
        ps->marks[ps->count].at_ns = t;
        ps->count++;
      }
      ps->pos = 0; ps->bad = 0; ps->nlen = 0;
    } else if (ps->bad) {
      /* rest of a line that is not a mark */
    } else if (ps->pos < plen) {
      if (c == PHASE_PREFIX[ps->pos]) ps->pos++; else ps->bad = 1;
    } else if (ps->nlen < MAX_PHASE_NAME) {
      ps->name[ps->nlen++] = c;
    } else {
      ps->bad = 1;
    }
  }
}

/* ---------- one launch ---------- */

typedef struct {
  int fd;
  int eof;
  int64_t eof_ns;
  tail_t tail;
  int64_t first_line_ns; /* first '\n' read, or EOF after some bytes; -1 if none */
  int got_bytes;
  phase_scan_t *phases; /* stderr only */
} stream_t;

/* Reads what is available. Returns 1 if the marker completed during this call. */
static int drain_stream(stream_t *s, matcher_t *mt, int64_t *ready_ns) {
  static char chunk[65536];
  int hit = 0;
  for (;;) {
    ssize_t r = read(s->fd, chunk, sizeof chunk);
    int64_t t = now_ns();
    if (r < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      r = 0; /* treat read errors as EOF */
    }
    if (r == 0) {
      s->eof = 1;
      s->eof_ns = t;
      if (s->first_line_ns < 0 && s->got_bytes) s->first_line_ns = t;
      if (mt && mt->mlen > 0 && !mt->seen && matcher_eof(mt)) { mt->seen = 1; *ready_ns = t; hit = 1; }
      close(s->fd);
      s->fd = -1;
      break;
    }
    tail_push(&s->tail, chunk, (size_t)r);
    if (s->phases) phase_feed(s->phases, chunk, (size_t)r, t);
    s->got_bytes = 1;
    if (s->first_line_ns < 0 && memchr(chunk, '\n', (size_t)r)) s->first_line_ns = t;
    if (mt && mt->mlen > 0 && !mt->seen && matcher_feed(mt, chunk, (size_t)r)) { mt->seen = 1; *ready_ns = t; hit = 1; }
  }
  return hit;
}

static void drain_sigchld_pipe(void) {
  char buf[64];
  while (read(sigchld_pipe[0], buf, sizeof buf) > 0) {}
}

static int64_t last_result_ns = -1;

static void emit_result(const request_t *rq, const char *spawn_error, int timed_out, int64_t t0,
                        int64_t ready_ns, int64_t first_line_ns, int64_t done_ns, int reaped, int status, const struct rusage *ru,
                        int marker_seen, const tail_t *out, const tail_t *err, int64_t idle_ns,
                        int stray_killed, int pipes_forced, const phase_scan_t *phases, const char *extra) {
  sbuf_t b = {0};
  char tmp[32];
  sb_str(&b, "{");
  sb_key(&b, "launchId"); sb_json_bytes(&b, rq->launch_id, strlen(rq->launch_id));
  sb_key(&b, "spawnError");
  if (spawn_error) sb_json_bytes(&b, spawn_error, strlen(spawn_error)); else sb_str(&b, "null");
  sb_key(&b, "timedOut"); sb_str(&b, timed_out ? "true" : "false");
  sb_key(&b, "readyMs");
  if (ready_ns >= 0) sb_fmt(&b, "%.6f", (double)(ready_ns - t0) / 1e6); else sb_str(&b, "null");
  sb_key(&b, "firstLineMs");
  if (first_line_ns >= 0) sb_fmt(&b, "%.6f", (double)(first_line_ns - t0) / 1e6); else sb_str(&b, "null");
  sb_key(&b, "completionMs");
  if (done_ns >= 0) sb_fmt(&b, "%.6f", (double)(done_ns - t0) / 1e6); else sb_str(&b, "null");
  sb_key(&b, "exitCode");
  if (reaped && WIFEXITED(status)) sb_fmt(&b, "%.0f", (double)WEXITSTATUS(status)); else sb_str(&b, "null");
  sb_key(&b, "signal");
  if (reaped && WIFSIGNALED(status)) {
    const char *name = signal_name(WTERMSIG(status), tmp, sizeof tmp);
    sb_json_bytes(&b, name, strlen(name));
  } else sb_str(&b, "null");
  if (reaped && ru) {
    double user_ms = ru->ru_utime.tv_sec * 1e3 + ru->ru_utime.tv_usec / 1e3;
    double sys_ms = ru->ru_stime.tv_sec * 1e3 + ru->ru_stime.tv_usec / 1e3;
#ifdef __APPLE__
    double rss_kb = (double)ru->ru_maxrss / 1024.0;
#else
    double rss_kb = (double)ru->ru_maxrss;
#endif
    sb_key(&b, "userCpuMs"); sb_fmt(&b, "%.3f", user_ms);
    sb_key(&b, "sysCpuMs"); sb_fmt(&b, "%.3f", sys_ms);
    sb_key(&b, "maxRssKb"); sb_fmt(&b, "%.0f", rss_kb);
  } else {
    sb_key(&b, "userCpuMs"); sb_str(&b, "null");
    sb_key(&b, "sysCpuMs"); sb_str(&b, "null");
    sb_key(&b, "maxRssKb"); sb_str(&b, "null");
  }
  sb_key(&b, "markerSeen"); sb_str(&b, marker_seen ? "true" : "false");
  sb_key(&b, "stdoutTail");
  if (out) sb_json_tail(&b, out); else sb_str(&b, "\"\"");
  sb_key(&b, "stderrTail");
  if (err) sb_json_tail(&b, err); else sb_str(&b, "\"\"");
  sb_key(&b, "idleMs");
  if (idle_ns >= 0) sb_fmt(&b, "%.6f", (double)idle_ns / 1e6); else sb_str(&b, "null");
  sb_key(&b, "strayKilled"); sb_str(&b, stray_killed ? "true" : "false");
  sb_key(&b, "pipesForcedClosed"); sb_str(&b, pipes_forced ? "true" : "false");
  sb_key(&b, "phases"); sb_str(&b, "[");
  for (int i = 0; phases && i < phases->count; i++) {
    if (i) sb_str(&b, ",");
    sb_str(&b, "{\"name\":");
    sb_json_bytes(&b, phases->marks[i].name, strlen(phases->marks[i].name));
    sb_fmt(&b, ",\"ms\":%.6f}", (double)(phases->marks[i].at_ns - t0) / 1e6);
  }
  sb_str(&b, "]");
  if (extra) sb_str(&b, extra);
  sb_str(&b, "}\n");
  write_all(1, b.p, b.len);
  last_result_ns = now_ns();
  free(b.p);
}

/* The spawn of every launch, single or in a burst: stdin from /dev/null, stdout and stderr to the pipes, in `cwd`,
 * a process group of its own, every signal unblocked and at its default. */
static void spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr, int out_w, int err_w, const char *cwd) {
  sigset_t empty, all;
  sigemptyset(&empty);
  sigfillset(&all);
  posix_spawn_file_actions_init(fa);
  posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(fa, out_w, 1);
  posix_spawn_file_actions_adddup2(fa, err_w, 2);
  posix_spawn_file_actions_addchdir_np(fa, cwd);
  posix_spawnattr_init(attr);
  posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(attr, 0);
  posix_spawnattr_setsigmask(attr, &empty);
  posix_spawnattr_setsigdefault(attr, &all);
}

/* SIGINT, SIGTERM and SIGHUP held back while a spawn records its process group (restored from `old`). */
static void block_terminate(sigset_t *old) {
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGINT);
  sigaddset(&term, SIGTERM);
  sigaddset(&term, SIGHUP);
  sigprocmask(SIG_BLOCK, &term, old);
}

static void run_launch(const request_t *rq, int64_t idle_ns) {
  char reason[1024];
  char *prog = resolve_program(rq->argv[0], rq->envp);
  if (!prog) {
    snprintf(reason, sizeof reason, "command not found: %s (not in the launch's PATH)", rq->argv[0]);
    emit_result(rq, reason, 0, 0, -1, -1, -1, 0, 0, NULL, 0, NULL, NULL, idle_ns, 0, 0, NULL, NULL);
    return;
  }
  struct stat st;
  if (stat(rq->cwd, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(reason, sizeof reason, "working directory %s: %s", rq->cwd, errno ? strerror(errno) : "not a directory");
    emit_result(rq, reason, 0, 0, -1, -1, -1, 0, 0, NULL, 0, NULL, NULL, idle_ns, 0, 0, NULL, NULL);
    free(prog);
    return;
  }

  int outp[2], errp[2];
  if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) die("pipe2");

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  spawn_setup(&fa, &attr, outp[1], errp[1], rq->cwd);
  sigset_t old;

  tail_t tails[2];
  tail_init(&tails[0], rq->tail_bytes);
  tail_init(&tails[1], rq->tail_bytes);
  matcher_t mt = {rq->marker, (long)strlen(rq->marker), 0, 0, 0};

  block_terminate(&old);
  drain_sigchld_pipe();

  pid_t pid;
  int64_t t0 = now_ns();
  int rc = posix_spawn(&pid, prog, &fa, &attr, rq->argv, rq->envp);
  if (rc == 0) child_pgid = pid;
  sigprocmask(SIG_SETMASK, &old, NULL);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(outp[1]);
  close(errp[1]);
  if (rc != 0) {
    close(outp[0]);
    close(errp[0]);
    snprintf(reason, sizeof reason, "could not start %s: %s", prog, strerror(rc));
    emit_result(rq, reason, 0, 0, -1, -1, -1, 0, 0, NULL, 0, NULL, NULL, idle_ns, 0, 0, NULL, NULL);
    free(tails[0].buf);
    free(tails[1].buf);
    free(prog);
    return;
  }
  free(prog);

  static phase_scan_t phase_scan;
  memset(&phase_scan, 0, sizeof phase_scan);
  stream_t streams[2] = {{outp[0], 0, -1, tails[0], -1, 0, NULL}, {errp[0], 0, -1, tails[1], -1, 0, &phase_scan}};
  set_nonblock(outp[0]);
  set_nonblock(errp[0]);
  int64_t deadline = t0 + (int64_t)rq->timeout_ms * 1000000LL;
  int64_t ready_ns = -1, exit_ns = -1;
  int reaped = 0, status = 0, timed_out = 0, client_gone = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);

  while (!(reaped && streams[0].eof && streams[1].eof)) {
    struct pollfd pf[4];
    int idx[2] = {-1, -1}, n = 0;
    for (int i = 0; i < 2; i++)
      if (!streams[i].eof) { pf[n].fd = streams[i].fd; pf[n].events = POLLIN; pf[n].revents = 0; idx[i] = n++; }
    int ichld = n;
    pf[n].fd = sigchld_pipe[0]; pf[n].events = POLLIN; pf[n].revents = 0; n++;
    int iin = n;
    pf[n].fd = 0; pf[n].events = 0; pf[n].revents = 0; n++; /* only HUP/ERR: the client went away */

    int64_t left_ns = deadline - now_ns();
    if (left_ns <= 0) { timed_out = 1; break; }
    int wait_ms = (int)((left_ns + 999999) / 1000000);
    int pr = poll(pf, (nfds_t)n, wait_ms);
    if (pr < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    for (int i = 0; i < 2; i++)
      if (idx[i] >= 0 && pf[idx[i]].revents) drain_stream(&streams[i], i == 0 ? &mt : NULL, &ready_ns);
    if (pf[ichld].revents || !reaped) {
      if (pf[ichld].revents) drain_sigchld_pipe();
      if (!reaped) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid) { reaped = 1; exit_ns = now_ns(); }
      }
    }
    if (pf[iin].revents & (POLLHUP | POLLERR | POLLNVAL)) { client_gone = 1; break; }
  }

  int stray_killed = 0, pipes_forced = 0;
  int64_t done_ns = -1;
  if (timed_out || client_gone) {
    kill(-pid, SIGKILL);
    int64_t grace_end = now_ns() + (int64_t)KILL_GRACE_MS * 1000000LL;
    while (!reaped || !streams[0].eof || !streams[1].eof) {
      if (!reaped) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid) reaped = 1;
      }
      for (int i = 0; i < 2; i++) if (!streams[i].eof) drain_stream(&streams[i], NULL, &ready_ns);
      if (reaped && streams[0].eof && streams[1].eof) break;
      if (now_ns() > grace_end) break;
      struct pollfd pf = {sigchld_pipe[0], POLLIN, 0};
      poll(&pf, 1, 10);
      drain_sigchld_pipe();
    }
    for (int i = 0; i < 2; i++) if (!streams[i].eof) { close(streams[i].fd); streams[i].fd = -1; pipes_forced = 1; }
    if (!reaped) { /* SIGKILLed; block until the kernel lets it go */
      if (wait4(pid, &status, 0, &ru) == pid) reaped = 1;
    }
    if (client_gone) { child_pgid = 0; _exit(0); }
  } else {
    done_ns = exit_ns;
    if (streams[0].eof_ns > done_ns) done_ns = streams[0].eof_ns;
    if (streams[1].eof_ns > done_ns) done_ns = streams[1].eof_ns;
    if (kill(-pid, 0) == 0) { kill(-pid, SIGKILL); stray_killed = 1; }
  }
  child_pgid = 0;

  emit_result(rq, NULL, timed_out, t0, ready_ns, streams[0].first_line_ns, done_ns, reaped, status, &ru, mt.seen,
              &streams[0].tail, &streams[1].tail, idle_ns, stray_killed, pipes_forced, &phase_scan, NULL);
  free(streams[0].tail.buf);
  free(streams[1].tail.buf);
}


/* ---------- a burst: N launches released together ---------- */

typedef struct {
  const request_t *rq;
  char reason[1024];
  int failed_to_spawn;
  pid_t pid;
  int spawned; /* an open loop spawns each launch at its own release */
  int64_t release_ns, spawn_ns, deadline, grace_end, done_ns, exit_ns, ready_ns;
  stream_t streams[2];
  matcher_t mt;
  phase_scan_t phases;
  int reaped, status, timed_out, stray_killed, pipes_forced, done;
  struct rusage ru;
} burst_launch_t;

static void burst_finish(burst_launch_t *l) {
  for (int i = 0; i < 2; i++)
    if (!l->streams[i].eof) { close(l->streams[i].fd); l->streams[i].fd = -1; l->streams[i].eof = 1; l->pipes_forced = 1; }
  if (!l->reaped && wait4(l->pid, &l->status, 0, &l->ru) == l->pid) l->reaped = 1;
  l->done = 1;
}

/* Spawns launch `l` released at `release` (its clock's zero): its process group, pipes and deadline. Called with
 * SIGINT, SIGTERM and SIGHUP blocked (block_terminate), so its group is recorded before any can arrive. */
static void burst_spawn(burst_launch_t *l, char *prog, int out[2], int err[2], int64_t release) {
  l->spawned = 1;
  l->release_ns = release;
  if (l->done) return; /* failed before its release: command not found, no working directory, no pipes */
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  spawn_setup(&fa, &attr, out[1], err[1], l->rq->cwd);
  l->spawn_ns = now_ns();
  int rc = posix_spawn(&l->pid, prog, &fa, &attr, l->rq->argv, l->rq->envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    l->pid = 0;
    snprintf(l->reason, sizeof l->reason, "could not start %s: %s", prog, strerror(rc));
    l->failed_to_spawn = l->done = 1;
    return;
  }
  burst_pgids[burst_count] = l->pid;
  burst_count = burst_count + 1;
  tail_init(&l->streams[0].tail, l->rq->tail_bytes);
  tail_init(&l->streams[1].tail, l->rq->tail_bytes);
  l->streams[0].fd = out[0];
  l->streams[1].fd = err[0];
  for (int k = 0; k < 2; k++) { l->streams[k].eof_ns = -1; l->streams[k].first_line_ns = -1; }
  l->streams[1].phases = &l->phases;
  set_nonblock(out[0]);
  set_nonblock(err[0]);
  l->mt = (matcher_t){l->rq->marker, (long)strlen(l->rq->marker), 0, 0, 0};
  l->deadline = release + (int64_t)l->rq->timeout_ms * 1000000LL;
}

/* interval_ns 0: all n released together (closed loop); else launch i at the first release + i * interval_ns (open loop). */
static void run_burst(const request_t *rqs, int n, int64_t interval_ns, int64_t idle_ns) {
  burst_launch_t *ls = calloc((size_t)n, sizeof *ls);
  if (!ls) die("calloc");
  /* two pipes per launch: raise the soft limit on open files to the hard one */
  struct rlimit nofile;
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
    nofile.rlim_cur = nofile.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &nofile);
  }
  char *progs[MAX_BURST] = {0};
  int outp[MAX_BURST][2], errp[MAX_BURST][2];
  for (int i = 0; i < n; i++) {
    burst_launch_t *l = &ls[i];
    l->rq = &rqs[i];
    l->ready_ns = l->exit_ns = l->done_ns = -1;
    progs[i] = resolve_program(rqs[i].argv[0], rqs[i].envp);
    struct stat st;
    if (!progs[i]) {
      snprintf(l->reason, sizeof l->reason, "command not found: %s (not in the launch's PATH)", rqs[i].argv[0]);
      l->failed_to_spawn = l->done = 1;
    } else if (stat(rqs[i].cwd, &st) != 0 || !S_ISDIR(st.st_mode)) {
      snprintf(l->reason, sizeof l->reason, "working directory %s: %s", rqs[i].cwd, errno ? strerror(errno) : "not a directory");
      l->failed_to_spawn = l->done = 1;
    } else if (pipe2(outp[i], O_CLOEXEC) < 0 || pipe2(errp[i], O_CLOEXEC) < 0) {
      snprintf(l->reason, sizeof l->reason, "pipe2: %s (launch %d of a burst of %d)", strerror(errno), i + 1, n);
      l->failed_to_spawn = l->done = 1;
    }
  }

  sigset_t old;
  block_terminate(&old);
  drain_sigchld_pipe();
  burst_count = 0;
  const int64_t t0 = now_ns(); /* the (first) release */
  int next = 0;                /* the next launch to release */
  if (interval_ns == 0) {
    for (; next < n; next++) burst_spawn(&ls[next], progs[next], outp[next], errp[next], t0);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);

  struct pollfd *pf = calloc((size_t)(2 * n + 2), sizeof *pf);
  int *owner = calloc((size_t)(2 * n + 2), sizeof *owner);
  if (!pf || !owner) die("calloc");
  for (;;) {
    /* an open loop releases every launch whose time has come, late or not (spawnOffsetMs says how late) */
    while (next < n && now_ns() >= t0 + (int64_t)next * interval_ns) {
      block_terminate(&old);
      burst_spawn(&ls[next], progs[next], outp[next], errp[next], t0 + (int64_t)next * interval_ns);
      sigprocmask(SIG_SETMASK, &old, NULL);
      next++;
    }
    int left = n - next; /* not yet released */
    int64_t wake = next < n ? t0 + (int64_t)next * interval_ns : INT64_MAX;
    int np = 0;
    for (int i = 0; i < next; i++) {
      burst_launch_t *l = &ls[i];
      if (l->done) continue;
      left++;
      int64_t until = l->timed_out ? l->grace_end : l->deadline;
      if (until < wake) wake = until;
      for (int k = 0; k < 2; k++)
        if (!l->streams[k].eof) { pf[np].fd = l->streams[k].fd; pf[np].events = POLLIN; pf[np].revents = 0; owner[np] = 2 * i + k; np++; }
    }
    if (!left) break;
    int ichld = np;
    pf[np].fd = sigchld_pipe[0]; pf[np].events = POLLIN; pf[np].revents = 0; np++;
    int iin = np;
    pf[np].fd = 0; pf[np].events = 0; pf[np].revents = 0; np++;
    /* until the nearest deadline or release, to the nanosecond; a child's exit wakes it through the SIGCHLD pipe */
    int64_t wait_ns = wake - now_ns();
    if (wait_ns < 0) wait_ns = 0;
    struct timespec wait_ts = {(time_t)(wait_ns / 1000000000LL), (long)(wait_ns % 1000000000LL)};
    int pr = ppoll(pf, (nfds_t)np, wake == INT64_MAX ? NULL : &wait_ts, NULL);
    if (pr < 0 && errno != EINTR) die("poll");
    if (pr > 0) {
      for (int j = 0; j < ichld; j++) {
        if (!pf[j].revents) continue;
        burst_launch_t *l = &ls[owner[j] / 2];
        int k = owner[j] % 2;
        drain_stream(&l->streams[k], k == 0 && !l->timed_out ? &l->mt : NULL, &l->ready_ns);
      }
      if (pf[ichld].revents) drain_sigchld_pipe();
      if (pf[iin].revents & (POLLHUP | POLLERR | POLLNVAL)) {
        for (int i = 0; i < n; i++) if (ls[i].pid > 0) kill(-ls[i].pid, SIGKILL);
        burst_count = 0;
        _exit(0);
      }
    }
    int64_t now = now_ns();
    for (int i = 0; i < next; i++) {
      burst_launch_t *l = &ls[i];
      if (l->done) continue;
      if (!l->reaped && wait4(l->pid, &l->status, WNOHANG, &l->ru) == l->pid) { l->reaped = 1; l->exit_ns = now; }
      if (l->reaped && l->streams[0].eof && l->streams[1].eof) {
        if (!l->timed_out) {
          l->done_ns = l->exit_ns;
          if (l->streams[0].eof_ns > l->done_ns) l->done_ns = l->streams[0].eof_ns;
          if (l->streams[1].eof_ns > l->done_ns) l->done_ns = l->streams[1].eof_ns;
          if (kill(-l->pid, 0) == 0) { kill(-l->pid, SIGKILL); l->stray_killed = 1; }
        }
        l->done = 1;
      } else if (!l->timed_out && now >= l->deadline) {
        l->timed_out = 1;
        kill(-l->pid, SIGKILL);
        l->grace_end = now + (int64_t)KILL_GRACE_MS * 1000000LL;
      } else if (l->timed_out && now > l->grace_end) {
        burst_finish(l);
      }
    }
  }
  burst_count = 0;
  free(pf);
  free(owner);

  char extra[200];
  for (int i = 0; i < n; i++) {
    burst_launch_t *l = &ls[i];
    snprintf(extra, sizeof extra, ",\"burst\":%d,\"burstIndex\":%d,\"releaseOffsetMs\":%.6f,\"spawnOffsetMs\":", n, i,
             (double)(l->release_ns - t0) / 1e6);
    size_t at = strlen(extra);
    if (l->failed_to_spawn && l->pid == 0 && l->spawn_ns == 0) snprintf(extra + at, sizeof extra - at, "null");
    else snprintf(extra + at, sizeof extra - at, "%.6f", (double)(l->spawn_ns - l->release_ns) / 1e6);
    if (l->failed_to_spawn) {
      emit_result(l->rq, l->reason, 0, 0, -1, -1, -1, 0, 0, NULL, 0, NULL, NULL, i == 0 ? idle_ns : -1, 0, 0, NULL, extra);
    } else {
      emit_result(l->rq, NULL, l->timed_out, l->release_ns, l->ready_ns, l->streams[0].first_line_ns, l->done_ns, l->reaped, l->status, &l->ru, l->mt.seen,
                  &l->streams[0].tail, &l->streams[1].tail, i == 0 ? idle_ns : -1, l->stray_killed, l->pipes_forced, &l->phases, extra);
      free(l->streams[0].tail.buf);
      free(l->streams[1].tail.buf);
    }
    free(progs[i]);
  }
  free(ls);
}

/* Reads decimal digits up to `end`; 0 and a protocol error when there are none or too many. */
static long read_number(char end, const char *what) {
  char c, num[16];
  size_t k = 0;
  for (;;) {
    if (!in_byte(&c)) protocol_error(what);
    if (c == end) break;
    if (k + 1 >= sizeof num || c < '0' || c > '9') protocol_error(what);
    num[k++] = c;
  }
  num[k] = 0;
  long v;
  if (!parse_long(num, &v)) protocol_error(what);
  return v;
}

/* "B<count>\n" or "B<count>@<interval us>\n", then count frames: a burst (run_burst). */
static void run_burst_request(int64_t idle_ns) {
  char c;
  long count = 0, interval_us = 0;
  (void)!in_byte(&c); /* the 'B' */
  for (;;) {
    if (!in_byte(&c)) protocol_error("truncated burst count");
    if (c == '\n') break;
    if (c == '@' && count > 0) {
      interval_us = read_number('\n', "bad burst interval");
      if (interval_us < 1 || interval_us > 60000000L) protocol_error("bad burst interval");
      break;
    }
    if (c < '0' || c > '9' || count > MAX_BURST) protocol_error("bad burst count");
    count = count * 10 + (c - '0');
  }
  if (count < 1 || count > MAX_BURST) protocol_error("bad burst count");
  request_t rqs[MAX_BURST];
  for (long i = 0; i < count; i++)
    if (!read_request(&rqs[i])) protocol_error("truncated burst");
  run_burst(rqs, (int)count, (int64_t)interval_us * 1000LL, idle_ns);
  for (long i = 0; i < count; i++) free_request(&rqs[i]);
}

int main(void) {
  if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe2");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigchld;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGCHLD, &sa, NULL);
  sa.sa_handler = on_terminate;
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  const char *hello = "{\"hello\":\"benchgraph-launcher\",\"protocol\":4}\n";
  write_all(1, hello, strlen(hello));
  last_result_ns = -1;

  request_t rq;
  char next;
  while (in_peek(&next)) {
    int64_t idle_ns = last_result_ns >= 0 ? now_ns() - last_result_ns : -1;
    if (next == 'B') {
      run_burst_request(idle_ns);
      continue;
    }
    if (!read_request(&rq)) break;
    run_launch(&rq, idle_ns);
    free_request(&rq);
  }
  return 0;
}
