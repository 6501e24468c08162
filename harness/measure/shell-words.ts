// Pure: splits a command string into words the way sh would for quoting only
// ('single', "double" with \" \\ \$ \` escapes, and backslash outside quotes),
// with no expansion: what `hyperfine -N` does with a command string.

/** The words of `text`, or the reason it cannot be split. */
export function shellWords(text: string): { words: string[] } | { problem: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return { problem: 'a single quote is not closed' };
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) j++;
        word += text[j];
      }
      if (j >= text.length) return { problem: 'a double quote is not closed' };
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) return { problem: 'the command ends with a backslash' };
      word += text[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return { words };
}
