package dev.lychee.store.lucene;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.SourceRole;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored JSON form of turns, segments, records and nodes: the full value, so that a document
 * read back is equal to what was written. Written field by field (not by reflection) so that the
 * stored format is explicit and does not drift silently with the API records.
 */
final class JsonCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonCodec() {}

  // ---- turns ----

  static String turn(RawTurn t) {
    return write(turnNode(t));
  }

  static RawTurn turn(String json) {
    return turn(read(json));
  }

  private static ObjectNode turnNode(RawTurn t) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("ns", t.namespace());
    n.put("session", t.session());
    n.put("index", t.index());
    n.put("role", t.role().name());
    if (t.speaker() != null) {
      n.put("speaker", t.speaker());
    }
    n.put("text", t.text());
    if (t.time() != null) {
      n.put("time", t.time().toString());
    }
    return n;
  }

  private static RawTurn turn(JsonNode n) {
    return new RawTurn(n.get("ns").asText(), new TurnRef(n.get("session").asText(), n.get("index").asInt()),
        Role.valueOf(n.get("role").asText()), textOrNull(n, "speaker"), n.get("text").asText(),
        dateTimeOrNull(n, "time"));
  }

  /** Several turns as one JSON array (the write-ahead log's entry for a turn append). */
  static String turns(List<RawTurn> turns) {
    ArrayNode a = MAPPER.createArrayNode();
    turns.forEach(t -> a.add(turnNode(t)));
    return write(a);
  }

  /** The turns of {@link #turns(List)}. */
  static List<RawTurn> turnList(String json) {
    List<RawTurn> out = new ArrayList<>();
    read(json).forEach(t -> out.add(turn(t)));
    return out;
  }

  // ---- segments ----

  static String segment(StoredSegment s) {
    Segment seg = s.segment();
    ObjectNode n = MAPPER.createObjectNode();
    n.put("ns", seg.namespace());
    n.put("session", seg.session());
    ArrayNode turns = n.putArray("turns");
    seg.turns().forEach(t -> turns.add(turnNode(t)));
    n.put("exchanges", seg.exchanges());
    n.put("tokens", seg.tokens());
    n.put("reason", seg.reason().name());
    // doubles as text: NaN is a legal value here and JSON has no number for it
    n.put("score", Double.toString(seg.score()));
    n.put("probability", Double.toString(seg.probability()));
    n.put("state", s.state().name());
    if (s.error() != null) {
      n.put("error", s.error());
    }
    return write(n);
  }

  static StoredSegment segment(String json) {
    JsonNode n = read(json);
    List<RawTurn> turns = new ArrayList<>();
    n.get("turns").forEach(t -> turns.add(turn(t)));
    Segment seg = new Segment(n.get("ns").asText(), n.get("session").asText(), turns,
        n.get("exchanges").asInt(), n.get("tokens").asInt(), CloseReason.valueOf(n.get("reason").asText()),
        Double.parseDouble(n.get("score").asText()), Double.parseDouble(n.get("probability").asText()));
    return new StoredSegment(seg, SegmentState.valueOf(n.get("state").asText()), textOrNull(n, "error"));
  }

  // ---- records ----

  static String record(MemoryRecord r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", r.id());
    n.put("ns", r.namespace());
    n.put("type", r.type().name());
    n.put("text", r.text());
    strings(n.putArray("entities"), r.entities());
    strings(n.putArray("tags"), r.tags());
    ObjectNode t = n.putObject("temporal");
    t.put("tRef", r.temporal().tRef());
    t.put("tValidFrom", r.temporal().tValidFrom());
    t.put("tValidTo", r.temporal().tValidTo());
    putRange(t, "span", r.temporal().span());
    t.put("unparsed", r.temporal().unparsed());
    ArrayNode ev = n.putArray("evidence");
    r.evidence().forEach(ref -> ev.addObject().put("session", ref.session()).put("index", ref.index()));
    n.put("session", r.session());
    n.put("segmentId", r.segmentId());
    n.put("sourceRole", r.sourceRole().name());
    if (r.createdAt() != null) {
      n.put("createdAt", r.createdAt().toString());
    }
    return write(n);
  }

  static MemoryRecord record(String json) {
    JsonNode n = read(json);
    JsonNode t = n.get("temporal");
    TemporalScope temporal = new TemporalScope(t.get("tRef").asText(), t.get("tValidFrom").asText(),
        t.get("tValidTo").asText(), rangeOrNull(t, "span"), t.get("unparsed").asBoolean());
    List<TurnRef> evidence = new ArrayList<>();
    n.get("evidence").forEach(e -> evidence.add(new TurnRef(e.get("session").asText(), e.get("index").asInt())));
    return new MemoryRecord(n.get("id").asText(), n.get("ns").asText(), MemoryType.valueOf(n.get("type").asText()),
        n.get("text").asText(), strings(n.get("entities")), strings(n.get("tags")), temporal, evidence,
        n.get("session").asText(), n.get("segmentId").asText(), SourceRole.valueOf(n.get("sourceRole").asText()),
        dateTimeOrNull(n, "createdAt"));
  }

  // ---- evidence nodes ----

  static String node(EvidenceNode e) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", e.id());
    n.put("ns", e.namespace());
    n.put("kind", e.kind().name());
    n.put("key", e.key());
    n.put("label", e.label());
    n.put("searchText", e.searchText());
    strings(n.putArray("recordIds"), e.recordIds());
    strings(n.putArray("sessions"), e.sessions());
    strings(n.putArray("entities"), e.entities());
    strings(n.putArray("tags"), e.tags());
    putRange(n, "span", e.span());
    ArrayNode ranges = n.putArray("turnRanges");
    e.turnRanges().forEach(r -> ranges.addObject().put("session", r.session()).put("first", r.first())
        .put("last", r.last()));
    return write(n);
  }

  static EvidenceNode node(String json) {
    JsonNode n = read(json);
    List<TurnRange> ranges = new ArrayList<>();
    n.get("turnRanges").forEach(r -> ranges.add(
        new TurnRange(r.get("session").asText(), r.get("first").asInt(), r.get("last").asInt())));
    return new EvidenceNode(n.get("id").asText(), n.get("ns").asText(), NodeKind.valueOf(n.get("kind").asText()),
        n.get("key").asText(), n.get("label").asText(), n.get("searchText").asText(), strings(n.get("recordIds")),
        strings(n.get("sessions")), strings(n.get("entities")), strings(n.get("tags")), rangeOrNull(n, "span"),
        ranges);
  }

  /** A node's id with its record ids (NodeLog#nodeRecordIds). */
  record NodeLinks(String id, List<String> recordIds) {}

  /**
   * The id and record ids of a stored node, read from the token stream without building the tree:
   * the parse stops once both are read (they are written before the sessions and turn ranges, which
   * grow with the namespace), and skips any other field met before them.
   */
  static NodeLinks nodeLinks(String json) {
    try (JsonParser p = MAPPER.getFactory().createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new JsonParseException(p, "a node is a JSON object");
      }
      String id = null;
      List<String> recordIds = null;
      while (p.nextToken() == JsonToken.FIELD_NAME && (id == null || recordIds == null)) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (field.equals("id")) {
          id = p.getText();
        } else if (field.equals("recordIds")) {
          if (value != JsonToken.START_ARRAY) {
            throw new JsonParseException(p, "recordIds is an array");
          }
          List<String> ids = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            ids.add(p.getText());
          }
          recordIds = List.copyOf(ids);
        } else {
          p.skipChildren();
        }
      }
      if (id == null || recordIds == null) {
        throw new JsonParseException(p, "a node without id or recordIds");
      }
      return new NodeLinks(id, recordIds);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException("corrupt stored document", e);
    }
  }

  // ---- pieces ----

  private static void strings(ArrayNode into, List<String> values) {
    values.forEach(into::add);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>(array.size());
    array.forEach(v -> out.add(v.asText()));
    return out;
  }

  private static void putRange(ObjectNode into, String name, DateRange range) {
    if (range == null) {
      return;
    }
    ObjectNode r = into.putObject(name);
    if (range.start() != null) {
      r.put("start", range.start().toString());
    }
    if (range.end() != null) {
      r.put("end", range.end().toString());
    }
  }

  private static DateRange rangeOrNull(JsonNode n, String name) {
    JsonNode r = n.get(name);
    if (r == null || r.isNull()) {
      return null;
    }
    String start = textOrNull(r, "start");
    String end = textOrNull(r, "end");
    return new DateRange(start == null ? null : LocalDate.parse(start), end == null ? null : LocalDate.parse(end));
  }

  private static String textOrNull(JsonNode n, String name) {
    JsonNode v = n.get(name);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static LocalDateTime dateTimeOrNull(JsonNode n, String name) {
    String v = textOrNull(n, name);
    return v == null ? null : LocalDateTime.parse(v);
  }

  private static String write(JsonNode n) {
    try {
      return MAPPER.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise a JSON tree", e);
    }
  }

  private static JsonNode read(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("corrupt stored document", e);
    }
  }
}
