package dev.lychee.store.postgres;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The next turn index of each session as this instance last saw it after an append, for
 * {@link TurnTable#appendInOrder}: only a guess, which that statement checks under the session's
 * lock (another instance may have appended or forgotten since), so a wrong or missing guess costs
 * the transaction's round trips and never a wrong index.
 *
 * <p>At most {@value #MAX_SESSIONS} sessions are kept, the least recently appended to dropped
 * first: an instance appending to more sessions at once takes the transaction for the ones it
 * dropped (ours: one small entry per session, and the bound only has to stop growth with the number
 * of sessions an instance ever wrote to).
 */
final class NextIndexGuesses {
  static final int MAX_SESSIONS = 4096;

  private record Key(String namespace, String session) {}

  private final Map<Key, Integer> guesses = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Integer> eldest) {
      return size() > MAX_SESSIONS;
    }
  };

  /** The session's next index as last seen, or null when unknown. */
  synchronized Integer get(String namespace, String session) {
    return guesses.get(new Key(namespace, session));
  }

  synchronized void put(String namespace, String session, int next) {
    guesses.put(new Key(namespace, session), next);
  }

  /** Forgets the guesses of a namespace (session null) or of one session. */
  synchronized void forget(String namespace, String session) {
    guesses.keySet().removeIf(k -> k.namespace().equals(namespace) && (session == null || k.session().equals(session)));
  }
}
