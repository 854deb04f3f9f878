package dev.lychee.core.ingest;

import dev.lychee.api.TokenUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@code append}, {@code flush} or {@code encodePending} call did.
 *
 * @param turnsStored turns newly stored (re-sent turns are not counted)
 * @param segmentsClosed segments the segmenter closed
 * @param segmentsQueued segments handed to the background encoder (0 in synchronous mode); they are
 *     stored as PENDING and become ENCODED later ({@code awaitIdle} waits for that)
 * @param segmentsEncoded segments encoded and committed during the call
 * @param recordsWritten records committed (before cross-segment dedup)
 * @param nodesWritten evidence nodes committed (before merging with stored ones)
 * @param usage LLM tokens the encoder reported ({@link TokenUsage#ZERO} offline)
 * @param encoderInputTokens tokens of the rendered encoder prompts, counted by Lychee
 * @param failures one entry per segment that failed to encode during the call, or per step that
 *     failed after the turns were stored; such segments stay pending
 */
public record IngestResult(
    int turnsStored,
    int segmentsClosed,
    int segmentsQueued,
    int segmentsEncoded,
    int recordsWritten,
    int nodesWritten,
    TokenUsage usage,
    long encoderInputTokens,
    List<SegmentFailure> failures) {

  public static final IngestResult EMPTY = new IngestResult(0, 0, 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of());

  public IngestResult {
    usage = usage == null ? TokenUsage.ZERO : usage;
    failures = List.copyOf(failures);
  }

  static IngestResult stored(int turns) {
    return new IngestResult(turns, 0, 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of());
  }

  static IngestResult closed(int segments) {
    return new IngestResult(0, segments, 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of());
  }

  static IngestResult queued(int segments) {
    return new IngestResult(0, 0, segments, 0, 0, 0, TokenUsage.ZERO, 0, List.of());
  }

  static IngestResult failed(SegmentFailure failure) {
    return new IngestResult(0, 0, 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of(failure));
  }

  /** The sum of two results. */
  public IngestResult plus(IngestResult o) {
    List<SegmentFailure> all = new ArrayList<>(failures);
    all.addAll(o.failures);
    return new IngestResult(turnsStored + o.turnsStored, segmentsClosed + o.segmentsClosed,
        segmentsQueued + o.segmentsQueued, segmentsEncoded + o.segmentsEncoded, recordsWritten + o.recordsWritten,
        nodesWritten + o.nodesWritten, usage.plus(o.usage), encoderInputTokens + o.encoderInputTokens, all);
  }

  /** One line per failure: the full error texts. */
  public List<String> errors() {
    return failures.stream().map(SegmentFailure::message).toList();
  }

  /** How many segments failed per failure kind, in first-seen order. */
  public Map<String, Integer> failuresByKind() {
    Map<String, Integer> out = new LinkedHashMap<>();
    failures.forEach(f -> out.merge(f.kind(), 1, Integer::sum));
    return out;
  }

  /** True when nothing failed. */
  public boolean ok() {
    return failures.isEmpty();
  }
}
