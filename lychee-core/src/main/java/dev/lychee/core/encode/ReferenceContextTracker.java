package dev.lychee.core.encode;

import dev.lychee.api.Encoding;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.ReferenceContext;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps each session's reference context between segments (docs/defaults.md §2.4): the latest
 * disambiguation note (flattened: lines trimmed, blank lines dropped, cut to
 * {@link EncodingConfig#maxNoteChars()}) and the session's latest distinct record texts
 * ({@link EncodingConfig#maxRecentRecords()}, oldest first, accumulated across segments).
 *
 * <p>Same-session only: the key is (namespace, session), and nothing ever flows between sessions.
 * An encoding with an empty note keeps the previous note. The state lives in memory and is lost on
 * restart, as in the reference; callers {@link #reset} a session they forget. At most
 * {@link EncodingConfig#maxSessionContexts()} sessions are kept: past it the least recently used
 * context is dropped, which for that session is what a restart does (review C F7: before, every
 * session a long-running process ever encoded kept its context until {@code forget}). When the
 * configuration switches the context off, {@link #current} always returns the empty context.
 *
 * <p>Thread-safe: one lock around the map; state per session is an immutable value.
 */
public final class ReferenceContextTracker {

  private record Key(String namespace, String session) {}

  private final EncodingConfig config;
  /** In access order, so the eldest entry is the least recently used; guarded by its own monitor. */
  private final Map<Key, ReferenceContext> contexts;

  @Inject
  public ReferenceContextTracker(EncodingConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    int max = config.maxSessionContexts();
    this.contexts = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, ReferenceContext> eldest) {
        return size() > max;
      }
    };
  }

  /** The context for the next segment of a session (empty for a new session or when switched off). */
  public ReferenceContext current(String namespace, String session) {
    if (!config.referenceContext()) {
      return ReferenceContext.EMPTY;
    }
    synchronized (contexts) {
      ReferenceContext c = contexts.get(new Key(namespace, session));
      return c == null ? ReferenceContext.EMPTY : c;
    }
  }

  /** Folds a segment's encoding into the session's context. */
  public void update(String namespace, String session, Encoding encoding) {
    Objects.requireNonNull(encoding, "encoding");
    if (!config.referenceContext()) {
      return;
    }
    Key key = new Key(namespace, session);
    synchronized (contexts) {
      ReferenceContext old = contexts.get(key);
      ReferenceContext previous = old == null ? ReferenceContext.EMPTY : old;
      String note = flatten(encoding.note(), config.maxNoteChars());
      if (note.isEmpty()) {
        note = previous.note();
      }
      LinkedHashSet<String> recent = new LinkedHashSet<>(previous.recentRecords());
      for (MemoryRecord r : encoding.records()) {
        recent.remove(r.text()); // a repeated statement moves to the newest position
        recent.add(r.text());
      }
      List<String> all = new ArrayList<>(recent);
      List<String> kept = all.subList(Math.max(0, all.size() - config.maxRecentRecords()), all.size());
      contexts.put(key, new ReferenceContext(note, kept));
    }
  }

  /** Forgets a session's context. */
  public void reset(String namespace, String session) {
    synchronized (contexts) {
      contexts.remove(new Key(namespace, session));
    }
  }

  /** How many sessions' contexts are held: at most {@link EncodingConfig#maxSessionContexts()}. */
  public int size() {
    synchronized (contexts) {
      return contexts.size();
    }
  }

  /**
   * The context as it appears in the encoder prompt: the note, then a heading and one bullet per
   * recent record, cut to {@link EncodingConfig#maxReferenceChars()} keeping the head; "" when the
   * context is empty.
   */
  public static String render(ReferenceContext context, EncodingConfig config) {
    if (context == null || context.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    String note = flatten(context.note(), config.maxNoteChars());
    if (!note.isEmpty()) {
      sb.append("Resolved references:\n").append(note);
    }
    List<String> recent = context.recentRecords();
    if (!recent.isEmpty()) {
      List<String> last = recent.subList(Math.max(0, recent.size() - config.maxRecentRecords()), recent.size());
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      sb.append("Recent records of this session:");
      last.forEach(t -> sb.append("\n- ").append(t));
    }
    String text = sb.toString();
    return text.length() > config.maxReferenceChars() ? text.substring(0, config.maxReferenceChars()) : text;
  }

  /** Lines trimmed, blank lines dropped, joined with newlines, cut to {@code max} characters. */
  static String flatten(String note, int max) {
    if (note == null || note.isBlank()) {
      return "";
    }
    String joined = String.join("\n", note.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
    return joined.length() > max ? joined.substring(0, max).strip() : joined;
  }
}
