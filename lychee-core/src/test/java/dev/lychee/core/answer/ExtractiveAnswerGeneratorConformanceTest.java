package dev.lychee.core.answer;

import dev.lychee.api.spi.AnswerGenerator;

/** The extractive answerer against the answer-generator contract. */
class ExtractiveAnswerGeneratorConformanceTest extends dev.lychee.core.conformance.BaseAnswerGeneratorTestCase {
  @Override
  protected AnswerGenerator newAnswerGenerator() {
    return new ExtractiveAnswerGenerator();
  }
}
