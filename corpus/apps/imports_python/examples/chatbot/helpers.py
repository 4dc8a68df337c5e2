import resend


def send(address, text):
    resend.Emails.send({"to": address, "subject": "re", "html": text})
