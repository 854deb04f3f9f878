package dev.lychee.core.encode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.core.llm.JsonExtraction;
import dev.lychee.core.llm.JsonExtractionException;
import dev.lychee.core.time.TemporalNormalizer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Turns an encoder LLM's answer into records, defensively:
 * <ul>
 *   <li>JSON is located by {@link JsonExtraction} (code fences, prose around it); when none is found,
 *       or the JSON has the wrong shape (no {@code "records"} field, {@code "records"} not a list,
 *       a bare empty list, a list of scalars), a {@link JsonExtractionException} is thrown so the
 *       caller can ask for a repair;
 *   <li>the records may come as {@code {"records": [...]}}, as a bare list, as a single record
 *       object, or with {@code "records"} holding a single object;
 *   <li>an unknown {@code memory_type} becomes {@code fact}; blank {@code semantic_text} drops the
 *       record;
 *   <li>{@code evidence_turns} are 0-based local indexes; numeric strings are accepted; an index
 *       that is out of the local range but equals an absolute turn index of the segment is mapped
 *       back (models sometimes echo absolute numbers); other indexes are dropped. A record left
 *       citing nothing cites <b>every turn of the segment</b>: the encoder saw only these turns, so
 *       segment-level provenance is true, only coarse; dropping the statement would lose it;
 *   <li>temporal fields are kept as written; {@link TemporalNormalizer} resolves them against the
 *       session date into {@link TemporalScope#span()}; a field that does not resolve stays as text
 *       and the scope is flagged {@link TemporalScope#unparsed()};
 *   <li>records with the same text collapse into one (the last one wins), as ids are text hashes.
 * </ul>
 * Every repair is reported as a warning. Stateless and thread-safe.
 */
public final class EncoderOutputParser {

  /**
   * The parse result.
   *
   * @param records the records, deduplicated by id
   * @param note the disambiguation note, flattened to lines ("" when none)
   * @param warnings what was repaired or dropped
   */
  public record Parsed(List<MemoryRecord> records, String note, List<String> warnings) {}

  private final TemporalNormalizer normalizer;

  public EncoderOutputParser(TemporalNormalizer normalizer) {
    this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
  }

  /**
   * Parses {@code modelText} for {@code segment}.
   *
   * @throws JsonExtractionException when the text holds no valid JSON object or array
   */
  public Parsed parse(String modelText, Segment segment) {
    JsonNode root = JsonExtraction.extract(modelText);
    List<String> warnings = new ArrayList<>();
    List<JsonNode> items;
    JsonNode noteNode = null;
    if (root.isArray()) {
      items = JsonExtraction.elements(root);
      requireSomeObject(items, "the model returned a bare list");
      warnings.add("the model returned a bare list of records");
    } else if (root.has("records")) {
      JsonNode rec = root.get("records");
      if (rec.isObject()) {
        warnings.add("\"records\" held a single object instead of a list");
      } else if (!rec.isArray()) {
        throw new JsonExtractionException("wrong shape: \"records\" is " + describe(rec) + ", not a list of record objects");
      }
      items = JsonExtraction.elements(rec);
      if (rec.isArray()) {
        requireSomeObject(items, "\"records\" is a list");
      }
      noteNode = root.get("disambiguation_context");
    } else if (root.has("semantic_text")) {
      items = List.of(root);
      warnings.add("the model returned a single record object");
    } else {
      throw new JsonExtractionException("wrong shape: the JSON object has no \"records\" field (keys: "
          + fieldNames(root) + ")");
    }
    Map<String, MemoryRecord> byId = new LinkedHashMap<>();
    int position = 0;
    for (JsonNode item : items) {
      MemoryRecord r = record(item, position++, segment, warnings);
      if (r != null) {
        if (byId.remove(r.id()) != null) {
          warnings.add("duplicate record text, kept the last: " + r.text());
        }
        byId.put(r.id(), r);
      }
    }
    return new Parsed(List.copyOf(byId.values()), note(noteNode), List.copyOf(warnings));
  }

  /**
   * Valid JSON of the wrong shape ({@code {"error": ...}}, {@code {"records": null}}, a bare empty
   * list, a list of scalars) is not an answer: it is reported like invalid JSON, so the segment is
   * repaired, retried or left pending instead of being marked encoded with nothing. An empty
   * {@code "records"} list stays a valid answer ("nothing worth remembering").
   */
  private static void requireSomeObject(List<JsonNode> items, String what) {
    if (items.isEmpty() && what.startsWith("the model returned a bare list")) {
      throw new JsonExtractionException("wrong shape: " + what + " with no record, not {\"records\": [...]}");
    }
    if (!items.isEmpty() && items.stream().noneMatch(JsonNode::isObject)) {
      throw new JsonExtractionException("wrong shape: " + what + " of " + describe(items.get(0)) + " values, not record objects");
    }
  }

  private static String describe(JsonNode n) {
    if (n == null || n.isNull()) {
      return "null";
    }
    return n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String fieldNames(JsonNode root) {
    List<String> names = new ArrayList<>();
    root.fieldNames().forEachRemaining(n -> names.add(n.length() > 40 ? n.substring(0, 40) + "..." : n));
    return names.size() > 10 ? String.join(", ", names.subList(0, 10)) + ", ..." : String.join(", ", names);
  }

  private MemoryRecord record(JsonNode item, int position, Segment segment, List<String> warnings) {
    if (!item.isObject()) {
      warnings.add("record " + position + " is not an object; dropped");
      return null;
    }
    String text = JsonExtraction.text(item.get("semantic_text")).strip();
    if (text.isEmpty()) {
      warnings.add("record " + position + " has a blank semantic_text; dropped");
      return null;
    }
    String rawType = JsonExtraction.text(item.get("memory_type")).strip();
    MemoryType type = MemoryType.parseOrFact(rawType);
    if (!rawType.isEmpty() && type == MemoryType.FACT && !rawType.equalsIgnoreCase("fact")) {
      warnings.add("record " + position + ": unknown memory_type '" + rawType + "' read as fact");
    }
    LocalDateTime sessionDate = EncoderPrompt.sessionDate(segment);
    TemporalScope temporal = temporal(item.get("temporal"), sessionDate, position, warnings);
    List<TurnRef> evidence = evidence(item.get("evidence_turns"), segment, position, warnings);
    String rawRole = JsonExtraction.text(item.get("source_role"));
    SourceRole role = SourceRole.parse(rawRole);
    return new MemoryRecord(null, segment.namespace(), type, text, strings(item.get("entities")),
        strings(item.get("tags")), temporal, evidence, segment.session(), segment.id(), role, sessionDate);
  }

  private TemporalScope temporal(JsonNode node, LocalDateTime sessionDate, int position, List<String> warnings) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return TemporalScope.NONE;
    }
    String ref;
    String from = "";
    String to = "";
    if (node.isObject()) {
      ref = JsonExtraction.text(node.get("t_ref"));
      from = JsonExtraction.text(node.get("t_valid_from"));
      to = JsonExtraction.text(node.get("t_valid_to"));
    } else {
      ref = JsonExtraction.text(node);
      warnings.add("record " + position + ": temporal was not an object; read as t_ref");
    }
    LocalDate anchor = sessionDate == null ? null : sessionDate.toLocalDate();
    TemporalScope scope = normalizer.scope(ref, from, to, anchor);
    if (scope.unparsed()) {
      warnings.add("record " + position + ": temporal value kept as text, not a date: "
          + String.join(" | ", List.of(scope.tRef(), scope.tValidFrom(), scope.tValidTo())));
    }
    return scope;
  }

  private static List<TurnRef> evidence(JsonNode node, Segment segment, int position, List<String> warnings) {
    List<RawTurn> turns = segment.turns();
    Set<TurnRef> refs = new LinkedHashSet<>();
    List<JsonNode> values = new ArrayList<>();
    if (node != null && node.isArray()) {
      node.forEach(values::add);
    } else if (node != null && (node.isNumber() || node.isTextual())) {
      values.add(node);
    }
    for (JsonNode v : values) {
      Integer idx = index(v);
      if (idx != null && idx >= 0 && idx < turns.size()) {
        refs.add(turns.get(idx).ref());
        continue;
      }
      RawTurn absolute = idx == null ? null
          : turns.stream().filter(t -> t.index() == idx).findFirst().orElse(null);
      if (absolute != null) {
        refs.add(absolute.ref());
        warnings.add("record " + position + ": evidence turn " + idx + " read as an absolute index");
      } else {
        warnings.add("record " + position + ": evidence turn " + v + " is outside the segment; dropped");
      }
    }
    if (refs.isEmpty()) {
      warnings.add("record " + position + ": no valid evidence turn; it cites the whole segment");
      turns.forEach(t -> refs.add(t.ref()));
    }
    return new ArrayList<>(refs);
  }

  private static Integer index(JsonNode v) {
    if (v.isIntegralNumber()) {
      // asInt() would wrap 4294967297 to 1 and cite a turn the model never named
      return v.canConvertToInt() ? v.asInt() : null;
    }
    if (v.isTextual()) {
      try {
        return Integer.parseInt(v.asText().strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node == null || node.isNull() || node.isMissingNode()) {
      return out;
    }
    if (node.isArray()) {
      node.forEach(n -> {
        String s = JsonExtraction.text(n).strip();
        if (!s.isEmpty()) {
          out.add(s);
        }
      });
    } else {
      String s = JsonExtraction.text(node).strip();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  private static String note(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return "";
    }
    List<String> lines = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> lines.add(JsonExtraction.text(n)));
    } else if (node.isObject()) {
      node.fields().forEachRemaining(e -> lines.add(e.getKey() + ": " + JsonExtraction.text(e.getValue())));
    } else {
      lines.add(node.asText(""));
    }
    return ReferenceContextTracker.flatten(String.join("\n", lines), Integer.MAX_VALUE);
  }
}
