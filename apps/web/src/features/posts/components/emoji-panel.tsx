import EmojiPicker, { EmojiStyle, Theme } from 'emoji-picker-react';

interface EmojiPanelProps {
  onPick: (emoji: string) => void;
  theme: 'light' | 'dark';
}

/**
 * emoji-picker-react, in its own chunk: loaded the first time someone opens it. Native emoji only —
 * the image styles would fetch from a CDN, which the Content-Security-Policy (rightly) forbids.
 */
export default function EmojiPanel({ onPick, theme }: EmojiPanelProps) {
  return (
    <EmojiPicker
      onEmojiClick={(data) => onPick(data.emoji)}
      emojiStyle={EmojiStyle.NATIVE}
      theme={theme === 'dark' ? Theme.DARK : Theme.LIGHT}
      autoFocusSearch
      lazyLoadEmojis
      width="100%"
      height={340}
      previewConfig={{ showPreview: false }}
    />
  );
}
