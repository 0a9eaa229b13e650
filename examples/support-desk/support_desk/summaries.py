"""Nightly summaries of long ticket threads, on Amazon Bedrock."""

import json

import boto3

bedrock = boto3.client("bedrock-runtime", region_name="us-east-1")


def summarize(thread: list[str]) -> str:
    """Return a short summary of a ticket thread."""
    body = {
        "anthropic_version": "bedrock-2023-05-31",
        "max_tokens": 512,
        "temperature": 0.5,
        "messages": [{"role": "user", "content": "Summarize:\n\n" + "\n\n".join(thread)}],
    }
    response = bedrock.invoke_model(
        modelId="anthropic.claude-3-5-haiku-20241022-v1:0", body=json.dumps(body)
    )
    return json.loads(response["body"].read())["content"][0]["text"]
