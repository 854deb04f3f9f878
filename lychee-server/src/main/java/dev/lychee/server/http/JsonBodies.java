package dev.lychee.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.stream.Collectors;

/**
 * JSON in and out. Bodies are read strictly: unknown fields, trailing tokens, numbers where text is
 * expected (and the reverse), and nulls for required numbers are rejected with the offending field
 * named. Field names are snake_case on the wire.
 */
public final class JsonBodies {
  private final ObjectMapper strict;
  private final ObjectMapper writer;

  public JsonBodies() {
    this.strict = configure(JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .build());
    for (LogicalType t : new LogicalType[] {LogicalType.Textual, LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
      strict.coercionConfigFor(t).setCoercion(CoercionInputShape.Integer, t == LogicalType.Integer ? CoercionAction.TryConvert : CoercionAction.Fail);
      strict.coercionConfigFor(t).setCoercion(CoercionInputShape.Float, t == LogicalType.Float ? CoercionAction.TryConvert : CoercionAction.Fail);
      strict.coercionConfigFor(t).setCoercion(CoercionInputShape.Boolean, t == LogicalType.Boolean ? CoercionAction.TryConvert : CoercionAction.Fail);
      strict.coercionConfigFor(t).setCoercion(CoercionInputShape.String, t == LogicalType.Textual ? CoercionAction.TryConvert : CoercionAction.Fail);
    }
    this.writer = configure(JsonMapper.builder().build());
  }

  private static ObjectMapper configure(ObjectMapper m) {
    m.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    m.registerModule(new JavaTimeModule());
    m.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    return m;
  }

  /** The mapper responses are written with (snake_case, ISO dates). */
  public ObjectMapper writer() {
    return writer;
  }

  /** Reads the request body as {@code type}, or throws an {@link ApiException} that names the problem. */
  public <T> T read(Context ctx, Class<T> type) {
    byte[] body = ctx.bodyAsBytes();
    if (body.length == 0) {
      throw new ApiException(ProblemCode.MALFORMED_JSON, "the body is empty; send a JSON object");
    }
    try {
      T value = strict.readValue(body, type);
      if (value == null) {
        // Jackson reads the literal null as no object at all; the routes would fail on it later
        throw new ApiException(ProblemCode.INVALID_REQUEST, "the body must be a JSON object, not null");
      }
      return value;
    } catch (UnrecognizedPropertyException e) {
      String known = e.getKnownPropertyIds() == null ? "" : e.getKnownPropertyIds().stream()
          .map(String::valueOf).sorted().collect(Collectors.joining(", "));
      throw new ApiException(ProblemCode.UNKNOWN_FIELD, "unknown field '" + path(e) + "'"
          + (known.isEmpty() ? "" : " (known fields: " + known + ")"));
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new ApiException(ProblemCode.INVALID_REQUEST, cause.getMessage());
    } catch (StreamReadException e) {
      throw new ApiException(ProblemCode.MALFORMED_JSON, "not valid JSON at line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
    } catch (JsonMappingException e) {
      if (e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Trailing token")) {
        throw new ApiException(ProblemCode.MALFORMED_JSON, "the body holds more than one JSON value");
      }
      if (!wellFormed(body)) {
        throw new ApiException(ProblemCode.MALFORMED_JSON, "the body is not valid JSON");
      }
      String field = path(e);
      throw new ApiException(ProblemCode.INVALID_REQUEST, (field.isEmpty() ? "the body" : "field '" + field + "'")
          + " has the wrong type or shape (" + e.getOriginalMessage().split("\n")[0].replaceAll(" \\(class [^)]*\\)", "") + ")");
    } catch (IOException e) {
      throw new ApiException(ProblemCode.MALFORMED_JSON, "the body could not be read as JSON");
    }
  }

  /** Serialises a response value. */
  public String write(Object value) {
    try {
      return writer.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("response could not be serialised: " + value.getClass().getSimpleName(), e);
    }
  }

  private boolean wellFormed(byte[] body) {
    try {
      strict.readTree(body);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String path(JsonMappingException e) {
    return e.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining(".")).replace(".[", "[");
  }
}
