package dev.lychee.core.fallback;

import dev.lychee.api.LycheeException;

/** An LLM call of a read failed or passed the deadline, and the policy is to fail. */
public class LlmUnavailableException extends LycheeException {
  public LlmUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
