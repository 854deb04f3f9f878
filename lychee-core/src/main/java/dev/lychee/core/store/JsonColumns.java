package dev.lychee.core.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of list-valued columns that the SQL stores (SQLite, PostgreSQL) share. Formats are
 * compact and positional so that they stay stable across releases: strings as an array, turn refs
 * as {@code [session, index]}, turn ranges as {@code [session, first, last]}, segment turns as
 * objects. Jackson writes U+0000 as an escape, so a column value never holds a raw NUL.
 */
public final class JsonColumns {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<Map<String, Object>>> OBJECTS = new TypeReference<>() {};

  private JsonColumns() {}

  public static String strings(List<String> values) {
    return write(values);
  }

  public static List<String> strings(String json) {
    try (JsonParser p = JSON.getFactory().createParser(json)) {
      expect(p.nextToken(), JsonToken.START_ARRAY);
      List<String> out = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        out.add(t == JsonToken.VALUE_NULL ? null : stringValue(p, t));
      }
      return out;
    } catch (IOException | RuntimeException e) {
      throw corrupt(json, e);
    }
  }

  public static String turnRefs(List<TurnRef> refs) {
    List<List<Object>> out = new ArrayList<>();
    for (TurnRef r : refs) {
      out.add(List.of(r.session(), r.index()));
    }
    return write(out);
  }

  public static List<TurnRef> turnRefs(String json) {
    try (JsonParser p = JSON.getFactory().createParser(json)) {
      expect(p.nextToken(), JsonToken.START_ARRAY);
      List<TurnRef> out = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        expect(t, JsonToken.START_ARRAY);
        String session = stringValue(p, p.nextToken());
        int index = intValue(p, p.nextToken());
        expect(p.nextToken(), JsonToken.END_ARRAY);
        out.add(new TurnRef(session, index));
      }
      return out;
    } catch (IOException | RuntimeException e) {
      throw corrupt(json, e);
    }
  }

  public static String turnRanges(List<TurnRange> ranges) {
    List<List<Object>> out = new ArrayList<>();
    for (TurnRange r : ranges) {
      out.add(List.of(r.session(), r.first(), r.last()));
    }
    return write(out);
  }

  public static List<TurnRange> turnRanges(String json) {
    try (JsonParser p = JSON.getFactory().createParser(json)) {
      expect(p.nextToken(), JsonToken.START_ARRAY);
      List<TurnRange> out = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        expect(t, JsonToken.START_ARRAY);
        String session = stringValue(p, p.nextToken());
        int first = intValue(p, p.nextToken());
        int last = intValue(p, p.nextToken());
        expect(p.nextToken(), JsonToken.END_ARRAY);
        out.add(new TurnRange(session, first, last));
      }
      return out;
    } catch (IOException | RuntimeException e) {
      throw corrupt(json, e);
    }
  }

  // The readers above stream the tokens instead of binding to lists of objects first: evidence
  // nodes of a namespace that grows link ever more sessions and turn ranges, and decoding them was
  // a large share of a recall on the SQL stores (docs/measurements.md, speed, round nine).

  private static void expect(JsonToken actual, JsonToken wanted) throws IOException {
    if (actual != wanted) {
      throw new IOException("expected " + wanted + ", found " + actual);
    }
  }

  private static String stringValue(JsonParser p, JsonToken t) throws IOException {
    expect(t, JsonToken.VALUE_STRING);
    return p.getText();
  }

  private static int intValue(JsonParser p, JsonToken t) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
      throw new IOException("expected a number, found " + t);
    }
    return p.getNumberValue().intValue();
  }

  private static IllegalStateException corrupt(String json, Exception e) {
    // the length only: a column may hold user text
    return new IllegalStateException("corrupt JSON column (" + (json == null ? 0 : json.length()) + " chars)", e);
  }

  /** Segment turns in full: a segment may hold fragments of an oversized turn, not the stored turn. */
  public static String segmentTurns(List<RawTurn> turns) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RawTurn t : turns) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("i", t.index());
      m.put("role", t.role().wireName());
      m.put("speaker", t.speaker());
      m.put("text", t.text());
      m.put("time", t.time() == null ? null : t.time().toString());
      out.add(m);
    }
    return write(out);
  }

  /** The turns of a segment of {@code session}, as {@link #segmentTurns(List)} wrote them. */
  public static List<RawTurn> segmentTurns(String namespace, String session, String json) {
    List<RawTurn> out = new ArrayList<>();
    for (Map<String, Object> m : read(json, OBJECTS)) {
      String time = (String) m.get("time");
      out.add(new RawTurn(namespace, new TurnRef(session, ((Number) m.get("i")).intValue()),
          Role.parse((String) m.get("role")), (String) m.get("speaker"), (String) m.get("text"),
          time == null ? null : LocalDateTime.parse(time)));
    }
    return out;
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode column value", e);
    }
  }

  private static <T> T read(String json, TypeReference<T> type) {
    try {
      return JSON.readValue(json, type);
    } catch (JsonProcessingException e) {
      // the length only: a column may hold user text
      throw new IllegalStateException("corrupt JSON column (" + json.length() + " chars)", e);
    }
  }
}
