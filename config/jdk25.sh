# Finds a JDK 25 for the project's scripts (./sluice, bench/alternate): source it, then call use_jdk25 NAME.
# Order: $JAVA_HOME, then the java on PATH, then the standard JVM folders. On success JAVA_HOME and PATH point
# at it; otherwise one line on stderr, prefixed with NAME, and exit 1.
java_major() { # $1 = path to a java binary; prints its feature version or nothing
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}
is_jdk25() { # $1 = a JDK home
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  local v; v="$(java_major "$1/bin/java")"
  [ -n "$v" ] && [ "$v" -ge 25 ]
}
find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && is_jdk25 "$JAVA_HOME"; then echo "$JAVA_HOME"; return; fi
  if command -v java >/dev/null 2>&1; then
    local home; home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    if is_jdk25 "$home"; then echo "$home"; return; fi
  fi
  local d
  for d in /usr/lib/jvm/* /usr/java/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$d" ] && is_jdk25 "$d" && { echo "$d"; return; }
  done
  return 1
}
use_jdk25() { # $1 = the script's name, for the message
  local jdk
  if ! jdk="$(find_jdk)"; then
    echo "$1: no JDK 25 found (looked at JAVA_HOME, java on PATH, /usr/lib/jvm); install a JDK 25, e.g. Temurin 25, and/or set JAVA_HOME to it." >&2
    exit 1
  fi
  export JAVA_HOME="$jdk"
  export PATH="$JAVA_HOME/bin:$PATH"
}
