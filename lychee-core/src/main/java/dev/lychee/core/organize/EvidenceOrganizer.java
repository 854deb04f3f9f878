package dev.lychee.core.organize;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Segment;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.core.time.DateKeys;
import jakarta.inject.Inject;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Derives evidence nodes from the records of one closed segment, without an LLM
 * (docs/defaults.md §3.1-3.2).
 *
 * <p>Per record, with {@code E} its entities and {@code G} its tags (each trimmed and deduplicated
 * case-insensitively, the memory type added to {@code G}):
 * <ul>
 *   <li>one <b>entity</b> node per entity, one <b>tag</b> node per tag, one <b>entity_tag</b> node
 *       per pair of {@code E × G} (key {@code norm(e)::norm(g)});
 *   <li><b>temporal</b> nodes {@code day:YYYY-MM-DD} and {@code month:YYYY-MM} for every day found by
 *       {@link DateKeys#extractDayKeys} in the record's three temporal fields. Values naming only a
 *       month or a year produce no node. Extension: when the fields hold no day but the record's
 *       resolved span is a single day (an LLM wrote "yesterday" and the parser resolved it), that day
 *       is used;
 *   <li><b>event_frame</b> nodes per {@link EventFrameMode} (default: one per segment).
 * </ul>
 * Nodes with the same id within the batch are merged with {@link EvidenceNode#mergedWith}. Node
 * embedding and storage belong to the ingest pipeline, which embeds {@link EvidenceNode#searchText()}.
 *
 * <p>Stateless and thread-safe.
 */
public final class EvidenceOrganizer {

  /** Event frames list at most this many record bullets in their search text. */
  static final int MAX_FRAME_BULLETS = 12;

  private final EventFrameMode frameMode;

  /** The paper's event frames: one per segment. */
  @Inject
  public EvidenceOrganizer() {
    this(EventFrameMode.SEGMENT);
  }

  public EvidenceOrganizer(EventFrameMode frameMode) {
    this.frameMode = Objects.requireNonNull(frameMode, "frameMode");
  }

  /** The nodes derived from {@code records}, merged by id, in first-derived order. */
  public List<EvidenceNode> organize(Segment segment, List<MemoryRecord> records) {
    Map<String, EvidenceNode> nodes = new LinkedHashMap<>();
    String ns = segment.namespace();
    for (MemoryRecord r : records) {
      List<String> entities = dedup(r.entities(), null);
      List<String> tags = dedup(r.tags(), r.type().wireName());
      DateRange span = span(r.temporal());
      List<TurnRange> ranges = turnRanges(r.evidence());
      List<String> sessions = List.of(r.session());
      String entLine = String.join(", ", entities);
      String tagLine = String.join(", ", tags);
      for (String e : entities) {
        if (KeyNormalizer.norm(e).isEmpty()) {
          continue;
        }
        add(nodes, new EvidenceNode(null, ns, NodeKind.ENTITY, KeyNormalizer.norm(e), e,
            "Entity: " + e + "\nTags: " + tagLine + "\nRecord: " + r.text(),
            List.of(r.id()), sessions, List.of(e), tags, span, ranges));
      }
      for (String g : tags) {
        if (KeyNormalizer.norm(g).isEmpty()) {
          continue;
        }
        add(nodes, new EvidenceNode(null, ns, NodeKind.TAG, KeyNormalizer.norm(g), g,
            "Tag: " + g + "\nEntities: " + entLine + "\nRecord: " + r.text(),
            List.of(r.id()), sessions, entities, List.of(g), span, ranges));
      }
      for (String e : entities) {
        String ek = KeyNormalizer.norm(e);
        for (String g : tags) {
          String gk = KeyNormalizer.norm(g);
          if (ek.isEmpty() || gk.isEmpty()) {
            continue;
          }
          add(nodes, new EvidenceNode(null, ns, NodeKind.ENTITY_TAG, ek + "::" + gk, e + " / " + g,
              "Entity: " + e + "\nTag: " + g + "\nEvidence: " + r.text(),
              List.of(r.id()), sessions, List.of(e), List.of(g), span, ranges));
        }
      }
      for (LocalDate day : days(r.temporal())) {
        String dayLabel = DateKeys.dayKey(day);
        String monthLabel = DateKeys.monthKey(day);
        add(nodes, temporal(ns, "day:" + dayLabel, dayLabel, DateRange.day(day), r, sessions,
            entities, tags, entLine, tagLine, ranges));
        add(nodes, temporal(ns, "month:" + monthLabel, monthLabel, DateRange.monthOf(day), r, sessions,
            entities, tags, entLine, tagLine, ranges));
      }
    }
    for (EvidenceNode frame : frames(segment, records)) {
      add(nodes, frame);
    }
    return List.copyOf(nodes.values());
  }

  private static EvidenceNode temporal(String ns, String key, String label, DateRange span, MemoryRecord r,
      List<String> sessions, List<String> entities, List<String> tags, String entLine, String tagLine,
      List<TurnRange> ranges) {
    return new EvidenceNode(null, ns, NodeKind.TEMPORAL, key, label,
        "Time: " + label + "\nEntities: " + entLine + "\nTags: " + tagLine + "\nRecord: " + r.text(),
        List.of(r.id()), sessions, entities, tags, span, ranges);
  }

  private List<EvidenceNode> frames(Segment segment, List<MemoryRecord> records) {
    if (records.isEmpty()) {
      return List.of();
    }
    List<EvidenceNode> out = new ArrayList<>();
    if (frameMode == EventFrameMode.SEGMENT) {
      out.add(frame(segment.namespace(), segment.session(), segment.id(), segment.firstIndex(),
          segment.lastIndex(), records));
      return out;
    }
    Map<String, Map<Integer, List<MemoryRecord>>> groups = new LinkedHashMap<>();
    for (MemoryRecord r : records) {
      TurnRef first = r.evidence().get(0);
      groups.computeIfAbsent(first.session(), s -> new TreeMap<>())
          .computeIfAbsent(first.index() / 4, b -> new ArrayList<>()).add(r);
    }
    groups.forEach((session, buckets) -> buckets.forEach((bucket, group) -> {
      int start = Integer.MAX_VALUE;
      int end = Integer.MIN_VALUE;
      for (MemoryRecord r : group) {
        for (TurnRef t : r.evidence()) {
          if (t.session().equals(session)) {
            start = Math.min(start, t.index());
            end = Math.max(end, t.index());
          }
        }
      }
      out.add(frame(segment.namespace(), session, session + ":" + bucket + ":" + start + "-" + end,
          start, end, group));
    }));
    return out;
  }

  private static EvidenceNode frame(String ns, String session, String key, int start, int end,
      List<MemoryRecord> group) {
    Set<String> entities = new LinkedHashSet<>();
    Set<String> tags = new LinkedHashSet<>();
    DateRange span = null;
    List<String> ids = new ArrayList<>();
    for (MemoryRecord r : group) {
      entities.addAll(dedup(r.entities(), null));
      tags.addAll(dedup(r.tags(), r.type().wireName()));
      DateRange s = span(r.temporal());
      if (s != null) {
        span = span == null ? s : span.union(s);
      }
      ids.add(r.id());
    }
    List<String> tagList = dedup(new ArrayList<>(tags), null);
    List<String> entList = dedup(new ArrayList<>(entities), null);
    StringBuilder text = new StringBuilder()
        .append("Session: ").append(session)
        .append("\nTurn range: ").append(start).append('-').append(end)
        .append("\nEntities: ").append(String.join(", ", entList))
        .append("\nTags: ").append(String.join(", ", tagList))
        .append("\nRecords:");
    group.stream().limit(MAX_FRAME_BULLETS).forEach(r -> text.append("\n- ").append(r.text()));
    return new EvidenceNode(null, ns, NodeKind.EVENT_FRAME, key, session + ":" + start + "-" + end,
        text.toString(), ids, List.of(session), entList, tagList, span,
        List.of(new TurnRange(session, start, end)));
  }

  private static void add(Map<String, EvidenceNode> nodes, EvidenceNode node) {
    nodes.merge(node.id(), node, EvidenceNode::mergedWith);
  }

  /** Trimmed, with a non-empty key, first spelling wins among case-insensitive duplicates; {@code extra} appended. */
  private static List<String> dedup(List<String> values, String extra) {
    Map<String, String> seen = new LinkedHashMap<>();
    for (String v : values) {
      if (v == null || KeyNormalizer.norm(v).isEmpty()) {
        continue; // nothing a key could be made of: punctuation-only or blank
      }
      String t = v.strip();
      seen.putIfAbsent(t.toLowerCase(Locale.ROOT), t);
    }
    if (extra != null) {
      seen.putIfAbsent(extra.toLowerCase(Locale.ROOT), extra);
    }
    return List.copyOf(seen.values());
  }

  private static List<LocalDate> days(TemporalScope t) {
    Set<LocalDate> days = new LinkedHashSet<>();
    for (String f : new String[] {t.tRef(), t.tValidFrom(), t.tValidTo()}) {
      days.addAll(DateKeys.extractDayKeys(f));
    }
    if (days.isEmpty() && t.span() != null && t.span().start() != null
        && t.span().start().equals(t.span().end())) {
      days.add(t.span().start());
    }
    return new ArrayList<>(days);
  }

  /** The record's resolved span, else min..max of the days in its fields, else null. */
  private static DateRange span(TemporalScope t) {
    if (t.span() != null) {
      return t.span();
    }
    List<LocalDate> days = days(t);
    if (days.isEmpty()) {
      return null;
    }
    LocalDate min = days.stream().min(LocalDate::compareTo).orElseThrow();
    LocalDate max = days.stream().max(LocalDate::compareTo).orElseThrow();
    return new DateRange(min, max);
  }

  private static List<TurnRange> turnRanges(List<TurnRef> evidence) {
    Map<String, int[]> bySession = new LinkedHashMap<>();
    for (TurnRef t : evidence) {
      bySession.merge(t.session(), new int[] {t.index(), t.index()},
          (a, b) -> new int[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
    }
    List<TurnRange> out = new ArrayList<>();
    bySession.forEach((s, mm) -> out.add(new TurnRange(s, mm[0], mm[1])));
    return out;
  }

}
