package dev.lychee.store.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.argument.Argument;

/**
 * Column encodings: list-valued columns as compact positional JSON (turn refs {@code [session,
 * index]}, turn ranges {@code [session, first, last]}, segment turns as objects), and user text made
 * safe for PostgreSQL, whose {@code text} type cannot hold U+0000.
 */
final class Columns {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
  private static final TypeReference<List<List<Object>>> TUPLES = new TypeReference<>() {};
  private static final TypeReference<List<Map<String, Object>>> OBJECTS = new TypeReference<>() {};
  /** Escape character of {@link #text}: a private-use code point, doubled when it occurs itself. */
  private static final char ESC = '\uE000';

  private Columns() {}

  /**
   * User text as stored: U+0000 becomes ESC '0' and ESC becomes ESC ESC, so every string
   * round-trips exactly; text holding neither is stored unchanged.
   */
  static String text(String s) {
    if (s == null || s.indexOf('\u0000') < 0 && s.indexOf(ESC) < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\u0000') {
        b.append(ESC).append('0');
      } else if (c == ESC) {
        b.append(ESC).append(ESC);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The inverse of {@link #text}. */
  static String untext(String s) {
    if (s == null || s.indexOf(ESC) < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ESC && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(n == '0' ? '\u0000' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  static String strings(List<String> values) {
    return write(values);
  }

  static List<String> strings(String json) {
    return read(json, STRINGS);
  }

  static String turnRefs(List<TurnRef> refs) {
    List<List<Object>> out = new ArrayList<>();
    for (TurnRef r : refs) {
      out.add(List.of(r.session(), r.index()));
    }
    return write(out);
  }

  static List<TurnRef> turnRefs(String json) {
    List<TurnRef> out = new ArrayList<>();
    for (List<Object> t : read(json, TUPLES)) {
      out.add(new TurnRef((String) t.get(0), ((Number) t.get(1)).intValue()));
    }
    return out;
  }

  static String turnRanges(List<TurnRange> ranges) {
    List<List<Object>> out = new ArrayList<>();
    for (TurnRange r : ranges) {
      out.add(List.of(r.session(), r.first(), r.last()));
    }
    return write(out);
  }

  static List<TurnRange> turnRanges(String json) {
    List<TurnRange> out = new ArrayList<>();
    for (List<Object> t : read(json, TUPLES)) {
      out.add(new TurnRange((String) t.get(0), ((Number) t.get(1)).intValue(), ((Number) t.get(2)).intValue()));
    }
    return out;
  }

  /** Segment turns in full: a segment may hold fragments of an oversized turn, not the stored turn. */
  static String segmentTurns(List<RawTurn> turns) {
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

  static List<RawTurn> segmentTurns(String namespace, String session, String json) {
    List<RawTurn> out = new ArrayList<>();
    for (Map<String, Object> m : read(json, OBJECTS)) {
      String time = (String) m.get("time");
      out.add(new RawTurn(namespace, new TurnRef(session, ((Number) m.get("i")).intValue()),
          Role.parse((String) m.get("role")), (String) m.get("speaker"), (String) m.get("text"),
          time == null ? null : LocalDateTime.parse(time)));
    }
    return out;
  }

  /**
   * A date-time argument bound through the driver's own {@code java.time} support, so no time zone
   * of the JVM ever shifts it (a {@code Timestamp} would, inside a daylight-saving gap).
   */
  static Argument time(LocalDateTime t) {
    return (position, statement, ctx) -> statement.setObject(position, t, Types.TIMESTAMP);
  }

  static Argument day(LocalDate d) {
    return (position, statement, ctx) -> statement.setObject(position, d, Types.DATE);
  }

  static LocalDateTime time(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, LocalDateTime.class);
  }

  static LocalDate day(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, LocalDate.class);
  }

  private static String write(Object value) {
    try {
      // Jackson writes U+0000 as an escape sequence, so JSON columns never hold a raw NUL
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode column value", e);
    }
  }

  private static <T> T read(String json, TypeReference<T> type) {
    try {
      return JSON.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("corrupt JSON column (" + json.length() + " chars)", e);
    }
  }
}
