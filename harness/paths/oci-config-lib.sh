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

# The mounts the configs choose from, one JSON object each.
OCI_MOUNT_PROC='{ "destination": "/proc", "type": "proc", "source": "proc" }'
OCI_MOUNT_DEV='{ "destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "strictatime", "mode=755", "size=65536k" ] }'
OCI_MOUNT_DEVPTS='{ "destination": "/dev/pts", "type": "devpts", "source": "devpts", "options": [ "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620" ] }'
OCI_MOUNT_SHM='{ "destination": "/dev/shm", "type": "tmpfs", "source": "shm", "options": [ "nosuid", "noexec", "nodev", "mode=1777", "size=65536k" ] }'
OCI_MOUNT_MQUEUE='{ "destination": "/dev/mqueue", "type": "mqueue", "source": "mqueue", "options": [ "nosuid", "noexec", "nodev" ] }'
OCI_MOUNT_SYS='{ "destination": "/sys", "type": "sysfs", "source": "sysfs", "options": [ "nosuid", "noexec", "nodev", "ro" ] }'
OCI_MOUNT_TMP='{ "destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "nodev", "mode=1777" ] }'
OCI_ENV_PATH='"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root"'
OCI_NS_NET='{ "type": "network" }'

# oci_config FILE: the one writer of an OCI runtime config.json. Reads
#   OCI_VERSION    ociVersion (crun: 1.0.2, runsc: 1.0.0)
#   OCI_ARGS       the command, as JSON string items (json_args)
#   OCI_ENV        the environment, as JSON string items
#   OCI_CAPS_LIST  the capabilities, as JSON string items (bounding = effective = permitted)
#   OCI_RLIMITS    rlimit objects as JSON items, or empty for none
#   OCI_ROOT       the root path; OCI_READONLY true|false
#   OCI_MOUNTS     the mount objects, one per line (oci_mounts)
#   OCI_NET        the network namespace object (OCI_NS_NET, or one with a path)
#   OCI_LINUX_EXTRA  more "linux" members (JSON text with its leading ",\n"), or empty
# A no-op on the host: it only writes FILE (no process but the shell's).
oci_config() {
  _rl=
  [ -n "${OCI_RLIMITS:-}" ] && _rl="
    \"rlimits\": [ $OCI_RLIMITS ],"
  cat > "$1" <<JSON
{
  "ociVersion": "$OCI_VERSION",
  "process": {
    "terminal": false,
    "user": { "uid": 0, "gid": 0 },
    "args": [ $OCI_ARGS ],
    "env": [ $OCI_ENV ],
    "cwd": "/",
    "capabilities": { "bounding": [ $OCI_CAPS_LIST ], "effective": [ $OCI_CAPS_LIST ], "permitted": [ $OCI_CAPS_LIST ] },$_rl
    "noNewPrivileges": true
  },
  "root": { "path": "$OCI_ROOT", "readonly": $OCI_READONLY },
  "hostname": "bench",
  "mounts": [
$OCI_MOUNTS
  ],
  "linux": {
    "namespaces": [ { "type": "pid" }, $OCI_NET, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" } ]${OCI_LINUX_EXTRA:-}
  }
}
JSON
}

# oci_mounts JSON...: the mount objects as the lines of "mounts", comma-separated.
oci_mounts() {
  _sep=
  for _m in "$@"; do
    printf '%s    %s' "$_sep" "$_m"
    _sep=',
'
  done
}
