package dev.lychee.api;

import java.util.Locale;

/** The kinds of evidence node the organizer derives from record metadata. */
public enum NodeKind {
  /** One node per entity. */
  ENTITY,
  /** One node per topic tag (the memory type counts as a tag). */
  TAG,
  /** One node per (entity, tag) pair of a record. */
  ENTITY_TAG,
  /** Day ({@code day:YYYY-MM-DD}) and month ({@code month:YYYY-MM}) keys. Never searched by vector. */
  TEMPORAL,
  /** The records of one closed segment, with session and turn range. */
  EVENT_FRAME;

  /** Snake-case wire name, for example {@code entity_tag}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
