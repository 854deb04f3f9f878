package dev.lychee.api;

import java.util.List;

/**
 * What one encoder call produced for one segment.
 *
 * @param records the records (deduplicated by id within the segment, last one wins)
 * @param note the disambiguation note for the next segment of the session ("" when none)
 * @param usage tokens the call consumed ({@link TokenUsage#ZERO} offline)
 * @param inputTokens tokens of the rendered prompt as counted by Lychee's tokenizer (0 if no
 *     prompt was rendered)
 * @param warnings problems that were repaired or dropped while parsing (never null)
 */
public record Encoding(List<MemoryRecord> records, String note, TokenUsage usage, long inputTokens, List<String> warnings) {
  public Encoding {
    records = List.copyOf(records);
    note = Checks.orEmpty(note);
    usage = usage == null ? TokenUsage.ZERO : usage;
    warnings = List.copyOf(warnings);
  }
}
