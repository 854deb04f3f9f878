package dev.lychee.core.encode;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.Encoding;
import dev.lychee.api.EncodingException;
import dev.lychee.api.LycheeException;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Encoder;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.core.llm.ChatRequests;
import dev.lychee.core.llm.JsonExtractionException;
import dev.lychee.core.time.TemporalNormalizer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The LLM segment encoder: one chat call per segment with {@link EncoderPrompt}, JSON mode on and
 * temperature 0 by default, parsed by {@link EncoderOutputParser}.
 *
 * <p>When the answer holds no valid JSON (empty, truncated, garbage), the faulty answer is sent
 * back with a short repair instruction, up to {@link EncodingConfig#repairRetries()} times. If it
 * is still invalid, an {@link EncodingException} carrying the last parse failure is thrown and the
 * caller leaves the segment pending. A provider failure is wrapped in an {@link EncodingException}
 * too. Nothing is swallowed.
 *
 * <p>Accounting: {@link Encoding#usage()} sums the provider-reported usage of every call made for
 * the segment (repairs included); {@link Encoding#inputTokens()} sums Lychee's own count
 * ({@link TokenCounter}) of every prompt message sent. Warnings from parsing, and a note when a
 * repair was needed, go to {@link Encoding#warnings()}.
 *
 * <p>Thread-safe when the chat model is.
 */
public final class LlmEncoder implements Encoder {

  private final ChatModel model;
  private final TokenCounter tokens;
  private final EncodingConfig config;
  private final EncoderPrompt prompt;
  private final EncoderOutputParser parser;

  @Inject
  public LlmEncoder(ChatModel model, TokenCounter tokens, EncodingConfig config) {
    this.model = Objects.requireNonNull(model, "model");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.config = Objects.requireNonNull(config, "config");
    this.prompt = new EncoderPrompt(config);
    this.parser = new EncoderOutputParser(new TemporalNormalizer());
  }

  @Override
  public String name() {
    return "llm";
  }

  @Override
  public Encoding encode(Segment segment, ReferenceContext context) {
    ReferenceContext ctx = config.referenceContext() && context != null ? context : ReferenceContext.EMPTY;
    ChatRequest request = ChatRequests.systemAndUser(prompt.system(), prompt.user(segment, ctx),
        config.temperature(), config.maxTokens(), config.jsonMode());
    TokenUsage usage = TokenUsage.ZERO;
    long inputTokens = 0;
    List<String> repairs = new ArrayList<>();
    JsonExtractionException lastFailure = null;
    for (int attempt = 0; attempt <= config.repairRetries(); attempt++) {
      inputTokens += countPrompt(request);
      ChatResult result = call(request, segment, attempt);
      usage = usage.plus(result.usage());
      try {
        EncoderOutputParser.Parsed parsed = parser.parse(result.text(), segment);
        List<String> warnings = new ArrayList<>(repairs);
        warnings.addAll(parsed.warnings());
        return new Encoding(parsed.records(), parsed.note(), usage, inputTokens, warnings);
      } catch (JsonExtractionException e) {
        if (lastFailure != null) {
          e.addSuppressed(lastFailure);
        }
        lastFailure = e;
        repairs.add("attempt " + (attempt + 1) + " returned invalid JSON (" + e.getMessage() + "); repaired by retry");
        request = ChatRequests.repair(request, result.text(),
            EncoderPrompt.REPAIR_INSTRUCTION.formatted(shortReason(e)));
      }
    }
    throw new EncodingException("segment " + segment.id() + " could not be encoded: the model's output was "
        + "not valid JSON after " + config.repairRetries() + " repair attempt(s): " + lastFailure.getMessage(),
        lastFailure);
  }

  private ChatResult call(ChatRequest request, Segment segment, int attempt) {
    try {
      return model.chat(request);
    } catch (LycheeException | IllegalStateException | IllegalArgumentException e) {
      throw new EncodingException("segment " + segment.id() + ": chat model " + model.modelId()
          + " failed on attempt " + (attempt + 1) + ": " + e.getMessage(), e);
    }
  }

  private long countPrompt(ChatRequest request) {
    return request.messages().stream().mapToLong(m -> tokens.count(m.content())).sum();
  }

  private static String shortReason(JsonExtractionException e) {
    String m = e.getMessage();
    int colon = m.indexOf(':');
    return colon > 0 ? m.substring(0, colon) : m;
  }
}
