package dev.lychee.core.answer;

import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.core.conformance.BaseAnswerGeneratorTestCase;
import dev.lychee.core.conformance.FixedReplyChatModel;
import dev.lychee.core.llm.O200kTokenCounter;

/** The LLM answerer against the answer-generator contract. */
class LlmAnswerGeneratorConformanceTest extends BaseAnswerGeneratorTestCase {
  @Override
  protected AnswerGenerator newAnswerGenerator() {
    return new LlmAnswerGenerator(new FixedReplyChatModel("Dana plays the cello."), new O200kTokenCounter());
  }
}
