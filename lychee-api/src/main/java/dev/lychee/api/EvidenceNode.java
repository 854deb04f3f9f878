package dev.lychee.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * An evidence node: an index entry derived from record metadata without an LLM (an entity, a tag,
 * an entity-tag pair, a day or month, or an event frame) that links to the records carrying it.
 *
 * @param id {@code ev_<kind>_} + the first 24 hex digits of SHA-256({@code "<kind>:<key>"})
 * @param namespace the namespace
 * @param kind the node kind
 * @param key the normalised key (for temporal nodes {@code day:YYYY-MM-DD} or {@code month:YYYY-MM})
 * @param label a human-readable label
 * @param searchText the text that is embedded for node search
 * @param recordIds the linked records, in insertion order, without duplicates
 * @param sessions the sessions of the linked records
 * @param entities entities of the linked records
 * @param tags tags of the linked records
 * @param span the node's temporal span; nullable
 * @param turnRanges the turn ranges of the linked evidence
 */
public record EvidenceNode(
    String id,
    String namespace,
    NodeKind kind,
    String key,
    String label,
    String searchText,
    List<String> recordIds,
    List<String> sessions,
    List<String> entities,
    List<String> tags,
    DateRange span,
    List<TurnRange> turnRanges) {

  public EvidenceNode {
    Checks.nonBlank(namespace, "namespace");
    Objects.requireNonNull(kind, "kind");
    Checks.nonBlank(key, "key");
    if (id == null || id.isBlank()) {
      id = idFor(kind, key);
    }
    label = Checks.orEmpty(label);
    searchText = Checks.orEmpty(searchText);
    recordIds = List.copyOf(new java.util.LinkedHashSet<>(recordIds));
    sessions = List.copyOf(new java.util.LinkedHashSet<>(sessions));
    entities = List.copyOf(new java.util.LinkedHashSet<>(entities));
    tags = List.copyOf(new java.util.LinkedHashSet<>(tags));
    turnRanges = List.copyOf(new java.util.LinkedHashSet<>(turnRanges));
  }

  /** The node id for a kind and key. */
  public static String idFor(NodeKind kind, String key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      String hex = HexFormat.of().formatHex(
          sha.digest((kind.wireName() + ":" + key).getBytes(StandardCharsets.UTF_8)));
      return "ev_" + kind.wireName() + "_" + hex.substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

  /** Search text kept by stores after a merge: the newest {@value} characters. */
  public static final int MAX_SEARCH_TEXT_CHARS = 8000;

  /**
   * This node merged with a newer version of itself (same id): search text appended after a newline
   * unless already contained (then only the newest {@link #MAX_SEARCH_TEXT_CHARS} characters are
   * kept), lists unioned in order, spans widened to cover both.
   */
  public EvidenceNode mergedWith(EvidenceNode newer) {
    if (!id.equals(newer.id)) {
      throw new IllegalArgumentException("cannot merge nodes with different ids");
    }
    String text = searchText;
    if (!newer.searchText.isEmpty() && !text.contains(newer.searchText)) {
      text = text.isEmpty() ? newer.searchText : text + "\n" + newer.searchText;
    }
    if (text.length() > MAX_SEARCH_TEXT_CHARS) {
      text = text.substring(text.length() - MAX_SEARCH_TEXT_CHARS);
    }
    DateRange mergedSpan = span == null ? newer.span : newer.span == null ? span : span.union(newer.span);
    return new EvidenceNode(id, namespace, kind, key, label.isEmpty() ? newer.label : label, text,
        concat(recordIds, newer.recordIds), concat(sessions, newer.sessions),
        concat(entities, newer.entities), concat(tags, newer.tags), mergedSpan,
        concat(turnRanges, newer.turnRanges));
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
