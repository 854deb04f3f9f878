package dev.lychee.api;

import java.time.Duration;

/**
 * The background encoder's queue is full and the configured policy is to refuse rather than wait.
 * Thrown by {@code append}/{@code flush} <b>before</b> anything of the call is stored, so the caller
 * may simply retry the same call later (a server maps it to HTTP 429 with {@code Retry-After}).
 */
public class QueueFullException extends LycheeException {
  private final int capacity;
  private final Duration retryAfter;

  /**
   * @param capacity the queue's capacity in segments
   * @param retryAfter a hint for when to try again
   */
  public QueueFullException(String message, int capacity, Duration retryAfter) {
    super(message);
    this.capacity = capacity;
    this.retryAfter = retryAfter;
  }

  /** The queue's capacity, in segments. */
  public int capacity() {
    return capacity;
  }

  /** A hint for when to try again. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
