package dev.lychee.api;

import java.time.LocalDateTime;

/**
 * A question asked of one namespace's memory.
 *
 * @param namespace the namespace to search; only this namespace is ever read
 * @param text the question, not blank, at most {@link Checks#MAX_QUESTION_CHARS} chars
 * @param k how many evidence items to return (at least 1)
 * @param askedAt the time basis for relative dates in the question; nullable (then "now")
 */
public record Question(String namespace, String text, int k, LocalDateTime askedAt) {

  /** The default evidence depth (the paper's effective k). */
  public static final int DEFAULT_K = 15;

  public Question {
    Checks.name(namespace, "namespace");
    Checks.question(text);
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
  }

  /** A question with the default depth and no time basis. */
  public static Question of(String namespace, String text) {
    return new Question(namespace, text, DEFAULT_K, null);
  }

  public Question withK(int newK) {
    return new Question(namespace, text, newK, askedAt);
  }
}
