"""Django views the URLconf routes to."""

from billing.payments import issue_refund


def retry_refund(request):
    issue_refund(request.POST["charge"], 100)
