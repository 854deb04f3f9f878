package dev.lychee.core.ingest;

import java.util.Objects;

/**
 * A (namespace, session) pair as a map key. A record, not a joined string: no two distinct pairs
 * can ever be equal, whatever characters the names hold.
 */
record SessionKey(String namespace, String session) {
  SessionKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(session, "session");
  }
}
