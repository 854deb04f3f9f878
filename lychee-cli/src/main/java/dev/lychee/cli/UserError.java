package dev.lychee.cli;

/**
 * An expected failure caused by what the user asked for (a missing file, an unknown namespace):
 * printed as one line, exit code 1, never with a stack trace.
 */
final class UserError extends RuntimeException {
  UserError(String message) {
    super(message);
  }
}
