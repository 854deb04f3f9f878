/** Evidence serialisation and answer generation: the LLM answerer and the offline extractive one. */
package dev.lychee.core.answer;
