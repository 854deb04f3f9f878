package dev.lychee.api;

/** Base of every exception Lychee throws on purpose. Unchecked. */
public class LycheeException extends RuntimeException {
  public LycheeException(String message) {
    super(message);
  }

  public LycheeException(String message, Throwable cause) {
    super(message, cause);
  }
}
