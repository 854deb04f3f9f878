package dev.lychee.api.spi;

/** Counts tokens of a text for cost accounting. Thread-safe; a null text counts as 0. */
public interface TokenCounter {
  int count(String text);
}
