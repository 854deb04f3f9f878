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

  /** Whether this pair lies in {@code namespace} and, unless {@code session} is null, is that session. */
  boolean in(String namespace, String session) {
    return this.namespace.equals(namespace) && (session == null || this.session.equals(session));
  }
}
