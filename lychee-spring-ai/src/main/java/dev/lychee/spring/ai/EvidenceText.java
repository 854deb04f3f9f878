package dev.lychee.spring.ai;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.TurnRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** How recalled evidence is written into a prompt and described as document metadata. */
public final class EvidenceText {
  /** Metadata key: the evidence id. */
  public static final String ID = "lychee_id";
  /** Metadata key: {@code record}, {@code raw_turn}, {@code window} or {@code other}. */
  public static final String KIND = "lychee_kind";
  /** Metadata key: the session the evidence came from. */
  public static final String SESSION = "lychee_session";
  /** Metadata key: the cited turns, {@code session:index} joined by commas. */
  public static final String TURNS = "lychee_turns";
  /** Metadata key: when the source dialogue took place (ISO date-time), when known. */
  public static final String DATE = "lychee_date";
  /** Metadata key: the record type, for records. */
  public static final String MEMORY_TYPE = "lychee_memory_type";

  private EvidenceText() {}

  /** One line per item: {@code - [date] text}, in rank order. */
  public static String lines(List<Evidence> evidence) {
    return evidence.stream().map(e -> {
      Candidate c = e.candidate();
      String date = c.mentionedAt() == null ? "" : "[" + c.mentionedAt().toLocalDate() + "] ";
      return "- " + date + c.text().replace('\n', ' ');
    }).collect(Collectors.joining("\n"));
  }

  /** The provenance of one item as document metadata. */
  public static Map<String, Object> metadata(Evidence e) {
    Candidate c = e.candidate();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(ID, c.id());
    m.put(KIND, c.kind().name().toLowerCase(Locale.ROOT));
    m.put(TURNS, c.turns().stream().map(TurnRef::toString).collect(Collectors.joining(",")));
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
