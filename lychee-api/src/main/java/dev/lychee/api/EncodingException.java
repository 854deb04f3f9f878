package dev.lychee.api;

/**
 * An encoder could not turn a segment into records (for example: the LLM's output stayed invalid
 * after the repair retry). The segment stays pending; its raw turns are already stored.
 */
public class EncodingException extends LycheeException {
  public EncodingException(String message) {
    super(message);
  }

  public EncodingException(String message, Throwable cause) {
    super(message, cause);
  }
}
