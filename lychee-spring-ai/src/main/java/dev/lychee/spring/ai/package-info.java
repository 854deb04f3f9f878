/**
 * Lychee inside Spring AI 1.1: {@link dev.lychee.spring.ai.advisor} puts recalled memory into
 * {@code ChatClient} prompts and remembers each exchange, {@link dev.lychee.spring.ai.retriever}
 * serves {@code RetrievalAugmentationAdvisor}, and {@link dev.lychee.spring.ai.bridge} runs Lychee's
 * own calls on the application's Spring AI models.
 */
package dev.lychee.spring.ai;
