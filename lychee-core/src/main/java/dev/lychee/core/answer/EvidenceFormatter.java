package dev.lychee.core.answer;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.TemporalScope;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Serialises evidence the way the answer prompt shows it, in two blocks: memory records, each with
 * a {@code Date:} line (the resolved date of what it states), and verbatim conversation excerpts
 * (raw turns and windows), each with a {@code Mentioned:} line (the day it was said). Items keep
 * their evidence rank as number. {@link #item(Evidence)} serialises one item exactly as it appears
 * in the whole, so token budgets can be counted item by item. Stateless and thread-safe.
 */
public final class EvidenceFormatter {
  /** Heading of the block of memory records. */
  public static final String RECORDS_HEADING = "Memory records:";
  /** Heading of the block of conversation excerpts. */
  public static final String EXCERPTS_HEADING = "Conversation excerpts:";

  /** The whole evidence as the answer prompt shows it; {@code (none)} blocks when empty. */
  public String format(List<Evidence> evidence) {
    List<String> records = new ArrayList<>();
    List<String> excerpts = new ArrayList<>();
    for (Evidence e : evidence) {
      (isRecord(e.candidate()) ? records : excerpts).add(item(e));
    }
    return RECORDS_HEADING + "\n" + (records.isEmpty() ? "(none)" : String.join("\n\n", records))
        + "\n\n" + EXCERPTS_HEADING + "\n" + (excerpts.isEmpty() ? "(none)" : String.join("\n\n", excerpts));
  }

  /** One item as it appears inside its block: number, text, date line. */
  public String item(Evidence e) {
    return item(e.candidate(), e.rank());
  }

  /** One candidate as it would appear at position {@code rank}. */
  public String item(Candidate c, int rank) {
    StringBuilder sb = new StringBuilder();
    sb.append('[').append(rank).append("] ").append(c.text().strip());
    String date = isRecord(c) ? recordDate(c) : day(c.mentionedAt());
    if (!date.isEmpty()) {
      sb.append('\n').append(isRecord(c) ? "Date: " : "Mentioned: ").append(date);
    }
    return sb.toString();
  }

  /** Whether the candidate goes in the records block. */
  public static boolean isRecord(Candidate c) {
    return c.kind() == CandidateKind.RECORD;
  }

  /** The resolved span, else the raw temporal text, else the day it was said. */
  static String recordDate(Candidate c) {
    TemporalScope t = c.temporal();
    DateRange span = t.span();
    if (span != null) {
      return span.toString();
    }
    if (!t.tRef().isEmpty()) {
      return t.tRef();
    }
    if (!t.tValidFrom().isEmpty()) {
      return t.tValidFrom();
    }
    String said = day(c.mentionedAt());
    return said.isEmpty() ? "" : "said on " + said;
  }

  private static String day(LocalDateTime t) {
    return t == null ? "" : t.toLocalDate().toString();
  }
}
