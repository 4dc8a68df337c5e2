import anthropic
import mubit.learn

claude = anthropic.Anthropic()


def judge_and_reward(answer: str):
    grade = claude.messages.create(model="claude-haiku-4-5", max_tokens=5,
                                   messages=[{"role": "user", "content": f"Is this correct? {answer}"}])
    mubit.learn.feedback(good="yes" in grade.content[0].text.lower())  # EXPECT: UNVERIFIED-OUTCOME
