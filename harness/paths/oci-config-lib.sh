# Sourced by the scripts that write an OCI runtime config.json (crun and runsc
# launches, gVisor effect rows): the pieces every such config shares, in one
# place. Sourcing runs in the launch's own shell, so it adds no process.

# json_args ARG...: the arguments as the items of a JSON string array.
json_args() {
  awk 'BEGIN {
    for (i = 1; i < ARGC; i++) {
      s = ARGV[i]; out = ""
      for (j = 1; j <= length(s); j++) {
        c = substr(s, j, 1)
        if (c == "\\") c = "\\\\"; else if (c == "\"") c = "\\\""; else if (c == "\n") c = "\\n"; else if (c == "\t") c = "\\t"; else if (c == "\r") c = "\\r"
        out = out c
      }
      printf "%s\"%s\"", (i > 1 ? ", " : ""), out
    }
  }' "$@"
}

# The capabilities of a default container.
OCI_CAPS='"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"'
