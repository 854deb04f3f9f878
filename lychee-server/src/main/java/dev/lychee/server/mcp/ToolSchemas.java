package dev.lychee.server.mcp;

import dev.lychee.api.Checks;
import dev.lychee.api.Question;

/**
 * JSON Schemas of the MCP tools' inputs. Every object schema forbids unknown properties. Names and
 * budgets have the library's bounds ({@link Checks#name}, {@link Question#MAX_TOKEN_BUDGET}); a
 * schema cannot state "no control character", so the server checks that itself.
 */
final class ToolSchemas {
  private ToolSchemas() {}

  private static final String NAME = "\"type\": \"string\", \"minLength\": 1, \"maxLength\": " + Checks.MAX_NAME_LENGTH;

  static final String REMEMBER = """
      {"type": "object", "additionalProperties": false,
       "properties": {
         "session": {%s, "description": "Session to add to (default: mcp)"},
         "note": {"type": "string", "minLength": 1, "description": "A note to remember, stored as one user turn"},
         "turns": {"type": "array", "minItems": 1, "maxItems": 500, "description": "Conversation turns to remember",
           "items": {"type": "object", "additionalProperties": false, "required": ["text"],
             "properties": {
               "speaker": {"type": "string"},
               "role": {"type": "string", "enum": ["user", "assistant", "system"]},
               "text": {"type": "string", "minLength": 1}}}},
         "session_date": {"type": "string", "description": "ISO date-time of the session, anchors relative dates"},
         "flush": {"type": "boolean", "description": "Close the session's open segment now (default true)"}}}
      """.formatted(NAME);

  static final String QUERY = """
      {"type": "object", "additionalProperties": false, "required": ["question"],
       "properties": {
         "question": {"type": "string", "minLength": 1},
         "k": {"type": "integer", "minimum": 1, "maximum": 200, "description": "How many evidence items"},
         "token_budget": {"type": "integer", "minimum": %d, "maximum": %d,
           "description": "Most tokens the evidence may take as an answer prompt shows it (k is then the least depth)"},
         "asked_at": {"type": "string", "description": "ISO date-time relative dates in the question refer to"}}}
      """.formatted(Question.MIN_TOKEN_BUDGET, Question.MAX_TOKEN_BUDGET);

  static final String FORGET = """
      {"type": "object", "additionalProperties": false,
       "properties": {
         "session": {%s, "description": "The session to forget"},
         "everything": {"type": "boolean", "description": "Forget the whole namespace (needs an admin key)"}}}
      """.formatted(NAME);

  static final String NONE = """
      {"type": "object", "additionalProperties": false, "properties": {}}
      """;
}
