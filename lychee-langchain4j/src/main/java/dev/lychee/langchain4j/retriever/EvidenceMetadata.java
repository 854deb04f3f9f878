package dev.lychee.langchain4j.retriever;

import dev.langchain4j.data.document.Metadata;
import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.TurnRef;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The segment metadata keys a {@link LycheeContentRetriever} writes, so that applications can cite
 * the turns an answer came from.
 */
public final class EvidenceMetadata {
  /** The evidence id (record id, {@code episode:<session>:<index>} or a window id). */
  public static final String ID = "lychee_id";
  /** {@code record}, {@code raw_turn}, {@code window} or {@code other}. */
  public static final String KIND = "lychee_kind";
  /** Lychee's final score, as a double in [0, 1]. */
  public static final String SCORE = "lychee_score";
  /** The session the evidence came from. */
  public static final String SESSION = "lychee_session";
  /** The cited turns, {@code session:index} joined by commas. */
  public static final String TURNS = "lychee_turns";
  /** When the source dialogue took place (ISO date-time), when known. */
  public static final String DATE = "lychee_date";
  /** The record type ({@code fact}, {@code event}, ...), for records only. */
  public static final String MEMORY_TYPE = "lychee_memory_type";

  private EvidenceMetadata() {}

  static Metadata of(Evidence e) {
    Candidate c = e.candidate();
    Metadata m = new Metadata()
        .put(ID, c.id())
        .put(KIND, c.kind().name().toLowerCase(Locale.ROOT))
        .put(SCORE, e.score())
        .put(TURNS, c.turns().stream().map(TurnRef::toString).collect(Collectors.joining(",")));
    if (!c.session().isEmpty()) {
      m.put(SESSION, c.session());
    }
    if (c.mentionedAt() != null) {
      m.put(DATE, c.mentionedAt().toString());
    }
    if (c.memoryType() != null) {
      m.put(MEMORY_TYPE, c.memoryType().wireName());
    }
    return m;
  }
}
