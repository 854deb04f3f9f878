package dev.lychee.bench.locomo;

import java.util.Objects;

/**
 * One LoCoMo turn.
 *
 * @param id its dia id
 * @param speaker the speaker's name
 * @param text the turn as ingested: {@code "<speaker>: <text>"}, plus
 *     {@code " [shares photo: <blip_caption>]"} when the turn shares an image
 */
public record LocomoTurn(DiaId id, String speaker, String text) {
  public LocomoTurn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(speaker, "speaker");
    Objects.requireNonNull(text, "text");
  }

  /** The turn's text without the {@code "<speaker>: "} prefix. */
  public String utterance() {
    String prefix = speaker + ": ";
    return text.startsWith(prefix) ? text.substring(prefix.length()) : text;
  }
}
