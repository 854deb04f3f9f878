package dev.lychee.core.ingest;

import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.SegmentClaims;
import dev.lychee.core.metrics.LycheeMetrics;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs encoding attempts for one segment: claim, encode and commit, then complete the claim or
 * release it with the error. Shared by the synchronous path (attempts in a loop on the caller's
 * thread) and the background queue (attempts rescheduled after a backoff).
 */
final class EncodeRunner {
  private static final Logger LOG = LoggerFactory.getLogger(EncodeRunner.class);

  private final SegmentCommitter committer;
  private final SegmentClaims claims;
  private final IngestConfig config;
  private final LycheeMetrics metrics;
  private final String owner;

  /**
   * The outcome of one attempt.
   *
   * @param result what was committed
   * @param failure the failure, or null when the segment was encoded (or skipped)
   * @param retryable whether another attempt may help
   * @param attempts attempts made so far on the segment, this one included
   * @param skipped the segment could not be claimed (another owner holds it): nothing was tried
   */
  record Step(IngestResult result, SegmentFailure failure, boolean retryable, int attempts, boolean skipped) {
    boolean encoded() {
      return failure == null && !skipped;
    }
  }

  EncodeRunner(SegmentCommitter committer, SegmentClaims claims, IngestConfig config, LycheeMetrics metrics, String owner) {
    this.committer = committer;
    this.claims = claims;
    this.config = config;
    this.metrics = metrics;
    this.owner = owner;
  }

  /**
   * One attempt. Never throws.
   *
   * @param priority the embedding priority of the segment's records and nodes
   */
  Step once(Segment segment, EmbeddingPriority priority) {
    Optional<SegmentClaim> claimed;
    try {
      claimed = claims.claim(segment, owner, config.claimLease());
    } catch (RuntimeException e) {
      return failed(segment, e, 0);
    }
    if (claimed.isEmpty()) {
      return new Step(IngestResult.EMPTY, null, false, 0, true);
    }
    SegmentClaim claim = claimed.get();
    SegmentCommitter.Outcome o = committer.attempt(segment,
        (records, nodes) -> claims.commitClaimed(claim, records, nodes), priority);
    int attempts = claim.attempts() + 1;
    if (o.lost()) {
      LOG.warn("segment " + segment.id() + ": the claim lapsed before the commit; another owner encodes it");
      return new Step(IngestResult.EMPTY, null, false, attempts, true);
    }
    if (o.ok()) {
      metrics.segmentEncoded();
      return new Step(o.result(), null, false, attempts, false);
    }
    Step step = failed(segment, o.failure(), attempts);
    try {
      claims.release(claim, step.failure().message());
    } catch (RuntimeException e) {
      o.failure().addSuppressed(e);
      LOG.warn("could not record the failure of segment " + segment.id(), e);
    }
    return new Step(o.result().plus(step.result()), step.failure(), step.retryable(), attempts, false);
  }

  private Step failed(Segment segment, RuntimeException e, int attempts) {
    String message = committer.encoderName() + " encoder failed on segment " + segment.id()
        + (attempts > 0 ? " (attempt " + attempts + ")" : "") + ": " + e.getMessage();
    SegmentFailure f = new SegmentFailure(segment.namespace(), segment.id(), FailureKinds.kind(e), message);
    boolean retry = FailureKinds.retryable(e) && attempts < config.maxAttempts();
    metrics.segmentFailed(retry);
    LOG.debug(message, e);
    return new Step(IngestResult.failed(f), f, FailureKinds.retryable(e), attempts, false);
  }

  /** Whether the segment's attempts are used up (by any owner, as far as the claims count them). */
  boolean exhausted(Segment segment) {
    return claims.attempts(segment.namespace(), segment.id()) >= config.maxAttempts();
  }

  /** Whether another attempt should follow {@code step}. */
  boolean retry(Step step) {
    return step.failure() != null && step.retryable() && step.attempts() < config.maxAttempts();
  }

  /**
   * The delay before the next attempt: {@code retryBackoff * 2^(attempts-1)}, capped at
   * {@code maxBackoff}, with "equal jitter" (a random half added to a fixed half), so workers that
   * failed together do not retry together.
   */
  Duration backoff(int attemptsMade) {
    long base = config.retryBackoff().toMillis();
    long cap = config.maxBackoff().toMillis();
    long exp = base << Math.min(Math.max(attemptsMade - 1, 0), 20);
    long d = Math.min(cap, exp < 0 ? cap : exp);
    long half = d / 2;
    return Duration.ofMillis(half + (half > 0 ? ThreadLocalRandom.current().nextLong(half + 1) : 0));
  }

  /** All attempts on the caller's thread; the segment stays PENDING when the last one fails. */
  IngestResult runSync(Segment segment) {
    IngestResult total = IngestResult.EMPTY;
    while (true) {
      Step step = once(segment, EmbeddingPriority.FOREGROUND);
      if (!retry(step)) {
        return total.plus(step.result());
      }
      total = total.plus(new IngestResult(0, 0, 0, 0, 0, 0, step.result().usage(),
          step.result().encoderInputTokens(), java.util.List.of()));
      try {
        Thread.sleep(backoff(step.attempts()).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return total.plus(step.result());
      }
    }
  }
}
