/**
 * Lychee inside langchain4j: {@link dev.lychee.langchain4j.retriever} recalls evidence as
 * {@code Content}, {@link dev.lychee.langchain4j.memory} feeds chat messages to Lychee while the
 * framework keeps its short window, and {@link dev.lychee.langchain4j.bridge} runs Lychee's own
 * LLM and embedding calls on the application's langchain4j models.
 */
package dev.lychee.langchain4j;
