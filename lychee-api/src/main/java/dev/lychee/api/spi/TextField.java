package dev.lychee.api.spi;

/** What a lexical (BM25/FTS) search runs over. */
public enum TextField {
  /** Raw turns; hits are raw-turn ids ({@code episode:<session>:<index>}). */
  TURNS,
  /** Memory records (type, text, entities, tags); hits are record ids. */
  RECORDS
}
