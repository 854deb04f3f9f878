package dev.lychee.core;

import dev.lychee.api.TokenUsage;
import java.util.List;

/**
 * What one {@code append}, {@code flush} or {@code encodePending} call did.
 *
 * @param turnsStored turns newly stored (re-sent turns are not counted)
 * @param segmentsClosed segments the segmenter closed
 * @param segmentsEncoded segments encoded and committed
 * @param recordsWritten records committed (before cross-segment dedup)
 * @param nodesWritten evidence nodes committed (before merging with stored ones)
 * @param usage LLM tokens the encoder reported ({@link TokenUsage#ZERO} offline)
 * @param encoderInputTokens tokens of the rendered encoder prompts, counted by Lychee
 * @param errors one line per segment that failed to encode; such segments stay pending
 */
public record IngestResult(
    int turnsStored,
    int segmentsClosed,
    int segmentsEncoded,
    int recordsWritten,
    int nodesWritten,
    TokenUsage usage,
    long encoderInputTokens,
    List<String> errors) {

  public static final IngestResult EMPTY = new IngestResult(0, 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of());

  public IngestResult {
    usage = usage == null ? TokenUsage.ZERO : usage;
    errors = List.copyOf(errors);
  }

  /** The sum of two results. */
  public IngestResult plus(IngestResult o) {
    List<String> all = new java.util.ArrayList<>(errors);
    all.addAll(o.errors);
    return new IngestResult(turnsStored + o.turnsStored, segmentsClosed + o.segmentsClosed,
        segmentsEncoded + o.segmentsEncoded, recordsWritten + o.recordsWritten,
        nodesWritten + o.nodesWritten, usage.plus(o.usage), encoderInputTokens + o.encoderInputTokens, all);
  }

  /** True when every closed segment was encoded. */
  public boolean ok() {
    return errors.isEmpty();
  }
}
